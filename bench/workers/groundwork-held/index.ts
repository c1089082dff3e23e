/**
 * Groundwork as deployed, except that every alarm a Task object arms is armed an hour later
 * than asked. `npm run bench -- triggers` runs it beside the real Worker to measure the accept
 * path alone: local workerd runs the Worker and every Durable Object on one thread, so the
 * assemblies a burst starts compete with the burst for CPU, where in production they run in
 * their Task objects, apart from the Worker that accepts deliveries. Everything the accept path
 * does is the real code, the alarm's storage write included; only the work the alarm does after
 * the answer never starts while the bench measures (it stops the Worker right after the burst).
 */
import worker, { KnowledgeScope, PullRequestTasks, TaskIndex, TaskObject as GroundworkTaskObject } from '../../../src/index.ts';

export { KnowledgeScope, PullRequestTasks, TaskIndex };

const HOLD_MS = 3_600_000;

export class TaskObject extends GroundworkTaskObject {
  constructor(ctx: DurableObjectState, env: Env) {
    const storage = ctx.storage;
    const setAlarm = storage.setAlarm.bind(storage);
    // An own property in front of the prototype's method: every caller (create, the attempts) goes through it.
    storage.setAlarm = (scheduledTime, options) => setAlarm(new Date(scheduledTime).getTime() + HOLD_MS, options);
    super(ctx, env);
  }
}

export default worker;

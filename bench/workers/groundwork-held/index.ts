/**
 * Groundwork as deployed, except that every alarm a Durable Object arms is armed an hour later
 * than asked. `npm run bench -- triggers` runs it beside the real Worker to measure the accept
 * path alone: local workerd runs the Worker and every Durable Object on one thread, so the work a
 * burst starts after its answers (the intake shards creating Task objects, their assemblies)
 * competes with the burst for CPU, where in production it runs in those objects, apart from the
 * Worker that accepts deliveries. Everything the accept path does is the real code, the alarm's
 * storage write included; only the work the alarms do after the answer never starts while the
 * bench measures (it stops the Worker right after the burst).
 */
import worker, { KnowledgeScope, PullRequestTasks, TaskIndex, TaskIntake as GroundworkTaskIntake, TaskObject as GroundworkTaskObject } from '../../../src/index.ts';

export { KnowledgeScope, PullRequestTasks, TaskIndex };

const HOLD_MS = 3_600_000;

/** An own property in front of the prototype's method: every caller goes through it. */
function holdAlarms(storage: DurableObjectStorage): void {
  const setAlarm = storage.setAlarm.bind(storage);
  storage.setAlarm = (scheduledTime, options) => setAlarm(new Date(scheduledTime).getTime() + HOLD_MS, options);
}

export class TaskObject extends GroundworkTaskObject {
  constructor(ctx: DurableObjectState, env: Env) {
    holdAlarms(ctx.storage);
    super(ctx, env);
  }
}

export class TaskIntake extends GroundworkTaskIntake {
  constructor(ctx: DurableObjectState, env: Env) {
    holdAlarms(ctx.storage);
    super(ctx, env);
  }
}

export default worker;

/**
 * Groundwork as deployed, except that every Task object's alarm first waits until the bench lets
 * it go (a request to `BENCH_RELEASE_URL` that the bench answers once the burst is answered).
 * `npm run bench -- triggers` runs it beside the real Worker to measure the accept path alone:
 * local workerd runs the Worker and every Durable Object on one thread, so assemblies started by
 * a burst compete with it for CPU, where in production each Task object runs apart from the
 * Worker that accepted it. Everything the accept path runs is the real code; only the work the
 * alarm does after the answer waits.
 */
import worker, { KnowledgeScope, PullRequestTasks, TaskIndex, TaskObject as GroundworkTaskObject } from '../../../src/index.ts';

export { KnowledgeScope, PullRequestTasks, TaskIndex };

export class TaskObject extends GroundworkTaskObject {
  override async alarm(): Promise<void> {
    const release = (this.env as Env & { BENCH_RELEASE_URL?: string }).BENCH_RELEASE_URL;
    if (!release) throw new Error('BENCH_RELEASE_URL is not set: this Worker is for bench/deliveries only');
    await fetch(release);
    await super.alarm();
  }
}

export default worker;

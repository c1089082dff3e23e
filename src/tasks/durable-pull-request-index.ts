/**
 * @module tasks/durable-pull-request-index
 * The PullRequestIndex backed by one PullRequestTasks Durable Object per pull request.
 */
import { pullRequestIndexName, type PullRequestIndex } from './pull-request-index.ts';

export function durablePullRequestIndex(env: Env): PullRequestIndex {
  const stub = (pr: Parameters<PullRequestIndex['lookup']>[0]) => env.PULL_REQUESTS.get(env.PULL_REQUESTS.idFromName(pullRequestIndexName(pr)));
  return {
    lookup: (pr, delivery) => stub(pr).lookup(delivery),
    record: (pr, delivery, routed, place) => stub(pr).record(delivery, routed, place),
  };
}

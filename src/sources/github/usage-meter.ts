/**
 * @module sources/github/usage-meter
 * Counts a task's GitHub requests into its usage (usage.ts): apart from the usage's schema, so that
 * what only counts (tasks/token-ahead, before the assembly code loads) does not load zod with it.
 */
import type { GitHubUsage } from './usage.ts';
import type { RateLimitReport } from './graphql-read-ahead.ts';
import type { Fetch } from './retry.ts';

export interface UsageMeter {
  /** Counts every request that goes through it and reads its rate-limit headers. */
  wrap(fetch: Fetch): Fetch;
  graphqlCost(report: RateLimitReport): void;
  read(): GitHubUsage;
}

export function createUsageMeter(): UsageMeter {
  const usage: GitHubUsage = { requests: { rest: 0, graphql: 0, token: 0 }, graphqlPoints: 0, remaining: {} };
  return {
    wrap: (fetch) => async (input, init) => {
      const url = input instanceof Request ? input.url : String(input);
      const kind = /\/access_tokens$/.test(url) ? 'token' : /\/graphql$/.test(url) ? 'graphql' : 'rest';
      usage.requests[kind]++;
      const response = await fetch(input, init);
      const remaining = Number(response.headers.get('x-ratelimit-remaining'));
      const reset = Number(response.headers.get('x-ratelimit-reset'));
      const bucket = response.headers.get('x-ratelimit-resource') ?? (kind === 'graphql' ? 'graphql' : 'core');
      if (kind !== 'token' && (bucket === 'core' || bucket === 'graphql') && response.headers.has('x-ratelimit-remaining') && Number.isInteger(remaining) && remaining >= 0) {
        usage.remaining[bucket] = { remaining, resetAt: Number.isFinite(reset) ? new Date(reset * 1000).toISOString() : '' };
      }
      return response;
    },
    graphqlCost(report) {
      usage.graphqlPoints += report.cost;
      usage.remaining.graphql = { remaining: Math.max(0, Math.floor(report.remaining)), resetAt: report.resetAt };
    },
    read: () => structuredClone(usage),
  };
}

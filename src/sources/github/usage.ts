/**
 * @module sources/github/usage
 * What a task's GitHub reads cost: requests by kind (every attempt, retries included, since
 * each one counts against a limit), GraphQL points as `rateLimit.cost` reports them, and the
 * last budget GitHub said was left per bucket (`x-ratelimit-remaining` of `core` for REST,
 * `graphql` for GraphQL). Shown in the task and the check run.
 */
import * as z from 'zod';
import { lazySchema } from '../../lib/lazy-schema.ts';
import type { RateLimitReport } from './graphql-read-ahead.ts';
import type { Fetch } from './retry.ts';

const Bucket = lazySchema(() => z.object({ remaining: z.number().int().nonnegative(), resetAt: z.string() }));

export const GitHubUsageSchema = lazySchema(() => z.object({
  requests: z.object({ rest: z.number().int().nonnegative(), graphql: z.number().int().nonnegative(), token: z.number().int().nonnegative() }),
  graphqlPoints: z.number().nonnegative(),
  remaining: z.object({ core: Bucket.optional(), graphql: Bucket.optional() }),
}));
export type GitHubUsage = z.infer<typeof GitHubUsageSchema>;

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

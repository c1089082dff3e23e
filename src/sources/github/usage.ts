/**
 * @module sources/github/usage
 * What a task's GitHub reads cost: requests by kind (every attempt, retries included, since
 * each one counts against a limit), GraphQL points as `rateLimit.cost` reports them, and the
 * last budget GitHub said was left per bucket (`x-ratelimit-remaining` of `core` for REST,
 * `graphql` for GraphQL). Shown in the task and the check run; counted by usage-meter.
 */
import * as z from 'zod';
import { lazySchema } from '../../lib/lazy-schema.ts';

const Bucket = lazySchema(() => z.object({ remaining: z.number().int().nonnegative(), resetAt: z.string() }));

export const GitHubUsageSchema = lazySchema(() => z.object({
  requests: z.object({ rest: z.number().int().nonnegative(), graphql: z.number().int().nonnegative(), token: z.number().int().nonnegative() }),
  graphqlPoints: z.number().nonnegative(),
  remaining: z.object({ core: Bucket.optional(), graphql: Bucket.optional() }),
}));
export type GitHubUsage = z.infer<typeof GitHubUsageSchema>;

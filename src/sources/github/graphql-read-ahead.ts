/**
 * @module sources/github/graphql-read-ahead
 * Runs the read-ahead query and turns its answer into what a snapshot serves: the commit, the
 * part of its tree, and blobs. A text becomes a blob only when its UTF-8 bytes hash to the
 * blob's id, so a text GitHub cut (`isTruncated`), re-encoded (invalid UTF-8) or withheld
 * (`isBinary`) is never served as the file: that blob is read over REST when it is asked for.
 */
import type { Octokit } from '@octokit/core';
import * as z from 'zod';
import { lazySchema } from '../../lib/lazy-schema.ts';
import { matchesOid } from '../cached-loader.ts';
import type { PartialTree } from '../partial-tree.ts';
import type { ReadPlan } from '../read-plan.ts';
import { PermanentSourceError } from '../permanent.ts';
import { describeFailure, rethrowIfAborted } from './errors.ts';
import { parseReadAhead, type TextCandidate } from './graphql-answer.ts';
import { readAheadQuery } from './graphql-query.ts';

export interface ReadAhead {
  commit: string;
  tree: PartialTree;
  /** Verified blob contents by blob id. */
  blobs: Map<string, Uint8Array>;
}

export type ReadAheadResult =
  | ({ status: 'ok' } & ReadAhead)
  | { status: 'missing' }
  /**
   * The query could not serve: GraphQL errors (e.g. a GitHub Enterprise Server without a field),
   * HTTP failures. `credentials`: the App's credentials cannot work (see client.ts), which every
   * REST read would meet too, so there is nothing to fall back to.
   */
  | { status: 'failed'; reason: string; schema: boolean; credentials?: true };

export interface RateLimitReport {
  cost: number;
  remaining: number;
  resetAt: string;
}

const GraphqlErrors = lazySchema(() => z.object({ errors: z.array(z.object({ message: z.string() })).min(1) }));

/**
 * @example
 * const ahead = await readAhead(octokit, { owner: 'acme', repo: 'widgets', rev: 'main', plan });
 * if (ahead.status === 'ok') createTreeSnapshot({ ..., loader: withBlobs(ahead.blobs) });
 */
export async function readAhead(
  octokit: Octokit,
  input: { owner: string; repo: string; rev: string; plan: ReadPlan; signal?: AbortSignal; onRateLimit?: (report: RateLimitReport) => void },
): Promise<ReadAheadResult> {
  const { query, variables, aliases } = readAheadQuery({ owner: input.owner, name: input.repo, rev: input.rev, plan: input.plan });
  let data: unknown;
  try {
    data = await octokit.graphql(query, { ...variables, ...(input.signal ? { request: { signal: input.signal } } : {}) });
  } catch (error) {
    rethrowIfAborted(input.signal);
    const graphql = GraphqlErrors.safeParse(error);
    const reason = graphql.success
      ? `GraphQL errors: ${[...new Set(graphql.data.errors.map((entry) => entry.message))].join('; ')}`
      : describeFailure(error, `GraphQL read-ahead of ${input.owner}/${input.repo}@${input.rev}`);
    // Validation errors name a field or type this server's schema lacks: asking again will not help.
    const schema = graphql.success && graphql.data.errors.some((entry) => /field|type/i.test(entry.message) && !/timeout/i.test(entry.message));
    // Only the client's credential step throws this; GraphQL's own refusals leave REST to try.
    return { status: 'failed', reason, schema, ...(error instanceof PermanentSourceError ? { credentials: true as const } : {}) };
  }
  const parsed = parseReadAhead(data, aliases);
  if (parsed.status !== 'unusable' && parsed.rateLimit) input.onRateLimit?.(parsed.rateLimit);
  if (parsed.status === 'unusable') return { status: 'failed', reason: parsed.reason, schema: false };
  if (parsed.status === 'missing') return { status: 'missing' };
  return { status: 'ok', commit: parsed.commit, tree: parsed.tree, blobs: await verifiedBlobs(parsed.texts) };
}

async function verifiedBlobs(texts: readonly TextCandidate[]): Promise<Map<string, Uint8Array>> {
  const blobs = new Map<string, Uint8Array>();
  await Promise.all(
    texts.map(async ({ oid, byteSize, text }) => {
      const bytes = new TextEncoder().encode(text);
      if (bytes.byteLength === byteSize && /^[0-9a-f]{40}([0-9a-f]{24})?$/.test(oid) && (await matchesOid(bytes, oid))) blobs.set(oid, bytes);
    }),
  );
  return blobs;
}


/**
 * @module mcp/cache-hints
 * The two things every list and read answer carries under 2026-07-28 besides its data: how long
 * it may be taken as current (`ttlMs`) and who may share a cached copy (`cacheScope`), which that
 * version requires on tools/list, resources/list, resources/templates/list, resources/read and
 * server/discover (2026-07-28 "Caching"), and the skills extension on skills/list and skills/get.
 * Legacy answers carry neither. And the cursor rule of every list: a cursor this server did not
 * issue is -32602 ("Invalid cursors SHOULD result in an error with code -32602", Pagination).
 */
import type { CallContext } from './call-context.ts';
import { RPC, RpcError } from './json-rpc.ts';

/** What does not change within a deployment (the tool catalog, the templates). */
export const STABLE_TTL_MS = 5 * 60 * 1000;
/** What a commit pins (a turn, a file at the task's commit): as long as a task lives, but a client re-reads after an hour. */
export const PINNED_TTL_MS = 60 * 60 * 1000;

export type CacheScope = 'public' | 'private';

export function cacheHints(call: CallContext, ttlMs: number, cacheScope: CacheScope): { ttlMs?: number; cacheScope?: CacheScope } {
  return call.era === 'modern' ? { ttlMs, cacheScope } : {};
}

/** For lists that fit one page: any cursor is one this server never issued. */
export function refuseCursor(params: Record<string, unknown>, list: string): void {
  const { cursor } = params;
  if (cursor === undefined) return;
  throw new RpcError(RPC.invalidParams, `Invalid params: cursor ${JSON.stringify(String(cursor).slice(0, 100))} was not issued here (${list} is one page)`);
}

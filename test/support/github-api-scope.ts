/**
 * @module test/support/github-api-scope
 * Per-test bookkeeping for the local GitHub API server: each scope (a path prefix) has its own
 * request log, scripted faults and settings, and check runs it was sent, and reports how many
 * round trips its requests took.
 */
import type { RecordedCheckRun, RecordedRequest, ScopeConfig, ScopeStats } from './github-api-client.ts';

export interface Scope {
  config: ScopeConfig;
  requests: RecordedRequest[];
  checkRuns: RecordedCheckRun[];
  /** Rate-limit budget spent per bucket. */
  spent: { core: number; graphql: number };
}

export const RATE_LIMIT = 5000;

/** Spends one unit of `bucket` and answers GitHub's rate-limit headers for it. */
export function spendRateLimit(scope: Scope, bucket: 'core' | 'graphql'): { remaining: number; used: number; resetAt: number; headers: Record<string, string> } {
  scope.spent[bucket]++;
  const start = scope.config.rateLimitRemaining?.[bucket] ?? RATE_LIMIT;
  const remaining = Math.max(0, start - scope.spent[bucket]);
  const used = RATE_LIMIT - remaining;
  const resetAt = Math.ceil(Date.now() / 1000 / 3600) * 3600;
  return {
    remaining,
    used,
    resetAt,
    headers: {
      'x-ratelimit-limit': String(RATE_LIMIT),
      'x-ratelimit-remaining': String(remaining),
      'x-ratelimit-used': String(used),
      'x-ratelimit-reset': String(resetAt),
      'x-ratelimit-resource': bucket,
    },
  };
}

export interface Answer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  /** Never send this answer: the request stays open until the server closes. */
  stall?: boolean;
  /** Send the head and then one byte of a body that never ends, until the client goes away. */
  drip?: boolean;
}

/** Scopes by name, created on first use. */
export function createScopes(): (name: string) => Scope {
  const scopes = new Map<string, Scope>();
  return (name) => {
    let scope = scopes.get(name);
    if (!scope) scopes.set(name, (scope = { config: {}, requests: [], checkRuns: [], spent: { core: 0, graphql: 0 } }));
    return scope;
  };
}

/** What `GET /__stats/<scope>` answers. */
export function scopeStats(scope: Scope): ScopeStats {
  return { count: scope.requests.length, rounds: rounds(scope.requests), requests: scope.requests, checkRuns: scope.checkRuns };
}

/** Consumes one scripted failure matching `path`, if any is left. */
export function faultFor(scope: Scope, path: string): Answer | undefined {
  const fault = scope.config.faults?.find((candidate) => candidate.times > 0 && path.includes(candidate.match ?? ''));
  if (!fault) return undefined;
  fault.times--;
  if (fault.stall) return { status: 0, body: '', stall: true };
  if (fault.drip) return { status: 200, body: '', drip: true };
  const headers: Record<string, string> = {};
  if (fault.retryAfter !== undefined) headers['retry-after'] = String(fault.retryAfter);
  if (fault.rateLimitResetIn !== undefined) {
    headers['x-ratelimit-remaining'] = '0';
    headers['x-ratelimit-reset'] = String(Math.ceil(Date.now() / 1000 + fault.rateLimitResetIn));
  }
  return { status: fault.status, headers, body: { message: fault.message ?? `injected ${fault.status}` } };
}

/**
 * Sequential round trips: the longest chain of requests in which each one started after the
 * previous one had been answered. Requests a client issues together overlap and count once.
 * This is wall-clock overlap, which a loaded machine changes: only the benches (which report the
 * fewest of several runs) use it; tests count rounds with `test/support/request-waves.ts`.
 */
export function rounds(requests: RecordedRequest[]): number {
  const done = requests.filter((request) => request.endedAt > 0).sort((a, b) => a.startedAt - b.startedAt);
  const depth: number[] = [];
  done.forEach((request, i) => {
    let best = 0;
    for (let j = 0; j < i; j++) if ((done[j]?.endedAt ?? Infinity) <= request.startedAt) best = Math.max(best, depth[j] ?? 0);
    depth.push(best + 1);
  });
  return Math.max(0, ...depth);
}

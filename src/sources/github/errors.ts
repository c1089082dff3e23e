/**
 * @module sources/github/errors
 * Turns what Octokit throws into reasons a human can act on. RequestError is read structurally
 * (status + response headers) so this module needs no transitive Octokit import.
 */
import * as z from 'zod';
import { lazySchema } from '../../lib/lazy-schema.ts';
import { isPermanentStatus, PermanentSourceError } from '../permanent.ts';

export interface HttpFailure {
  status: number;
  message: string;
  headers: Record<string, unknown>;
  /** The URL of the request that failed, when the error carries it. */
  url?: string;
}

const RequestErrorShape = lazySchema(() => z.object({
  status: z.number(),
  response: z.object({ headers: z.record(z.string(), z.unknown()) }).optional(),
  request: z.object({ url: z.string() }).optional(),
}));

/** The HTTP status and headers of a failed request, or undefined for any other error. */
export function httpFailure(error: unknown): HttpFailure | undefined {
  if (!(error instanceof Error)) return undefined;
  const parsed = RequestErrorShape.safeParse(error);
  if (!parsed.success) return undefined;
  const url = parsed.data.request?.url;
  return { status: parsed.data.status, message: error.message, headers: parsed.data.response?.headers ?? {}, ...(url === undefined ? {} : { url }) };
}

/**
 * A reason that names the cause: bad credentials, missing access, rate limit, server error.
 *
 * @example
 * describeFailure(error, 'commit 1a2b... in acme/widgets') // 'bad credentials (401) for commit ...'
 */
export function describeFailure(error: unknown, subject: string): string {
  const failure = httpFailure(error);
  if (!failure) return error instanceof Error ? error.message : String(error);
  const { status, headers, message } = failure;
  if (status === 401) return `bad credentials (401) for ${subject}: GitHub rejected the token`;
  if ((status === 403 || status === 429) && headers['x-ratelimit-remaining'] === '0') {
    const reset = Number(headers['x-ratelimit-reset']);
    const when = Number.isFinite(reset) ? `; resets at ${new Date(reset * 1000).toISOString()}` : '';
    return `rate limit exhausted (${status}) for ${subject}${when}`;
  }
  if ((status === 403 || status === 429) && headers['retry-after'] !== undefined) {
    return `secondary rate limit (${status}) for ${subject}; GitHub asked to retry after ${String(headers['retry-after'])}s, beyond the retry budget`;
  }
  if (status === 429) return `rate limited (429) for ${subject}`;
  if (status === 403) return `forbidden (403) for ${subject}: the credentials lack access (${message})`;
  if (status === 404) return `not found (404): ${subject}`;
  if (status >= 500) return `GitHub API error (${status}) for ${subject}, still failing after retries`;
  return `GitHub API error (${status}) for ${subject}: ${message}`;
}

/**
 * Whether asking again cannot help: no access, not found or unprocessable. A 403 or 429 that
 * carries rate-limit headers is congestion, which passes.
 */
export function isPermanentFailure(error: unknown): boolean {
  if (error instanceof PermanentSourceError) return true;
  const failure = httpFailure(error);
  if (!failure) return false;
  const { status, headers } = failure;
  const limited = headers['retry-after'] !== undefined || headers['x-ratelimit-remaining'] === '0';
  return isPermanentStatus(status) && !(status === 403 && limited);
}

/** Aborts are the caller's decision, not a failure of the repository: rethrow them as they are. */
export function rethrowIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw signal.reason;
}

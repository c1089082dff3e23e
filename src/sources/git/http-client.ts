/**
 * @module sources/git/http-client
 * The one way the remote git source talks HTTP: `fetch` is a parameter, so tests and hosts choose
 * the transport, every byte received counts against a budget so that a huge repository fails fast
 * instead of exhausting the Worker's memory, and a body is read under the caller's signal, so a
 * server that drips bytes is hung up on when the caller's deadline fires.
 */
import { untilAborted } from '../../lib/abortable.ts';
import { concatBytes } from '../../lib/bytes.ts';
import { isPermanentStatus } from '../permanent.ts';

/** The part of `fetch` this client uses; the global `fetch` of workerd and Node both fit. */
export type FetchLike = (
  url: string,
  init: { method: string; headers: Record<string, string>; body?: Uint8Array<ArrayBuffer>; signal?: AbortSignal; redirect?: 'follow' | 'manual' },
) => Promise<Response>;

/** Bytes received across every request of one operation (discovery, ls-refs, pack). */
export interface TransferBudget {
  readonly maxBytes: number;
  received: number;
}

export class TransferCapExceeded extends Error {
  readonly maxBytes: number;
  constructor(maxBytes: number) {
    super(`received more than ${maxBytes} bytes`);
    this.name = 'TransferCapExceeded';
    this.maxBytes = maxBytes;
  }
}

/** A status other than 200; `permanent` when asking again cannot help (401, 403, 404, ...). */
export class GitHttpError extends Error {
  readonly status: number;
  constructor(status: number, statusText: string) {
    super(`HTTP Error: ${status} ${statusText}`.trimEnd());
    this.name = 'GitHttpError';
    this.status = status;
  }
  get permanent(): boolean {
    return isPermanentStatus(this.status);
  }
}

export function createTransferBudget(maxBytes: number): TransferBudget {
  return { maxBytes, received: 0 };
}

/** True once the budget has been overrun, whatever error the overrun surfaced as. */
export function budgetExceeded(budget: TransferBudget): boolean {
  return budget.received > budget.maxBytes;
}

export interface GitHttpRequest {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
}

export interface GitHttpAnswer {
  contentType: string;
  body: Uint8Array;
}

/** Sends one request and reads its whole body (a 200) within the budget; any other status throws {@link GitHttpError}. */
export type GitHttp = (request: GitHttpRequest) => Promise<GitHttpAnswer>;

export function createCappedHttpClient(fetch: FetchLike, budget: TransferBudget, signal?: AbortSignal): GitHttp {
  return async ({ url, method, headers, body }) => {
    const payload: Uint8Array<ArrayBuffer> | undefined = body === undefined ? undefined : new Uint8Array(new TextEncoder().encode(body));
    const response = await fetch(url, { method, headers, ...(payload ? { body: payload } : {}), ...(signal ? { signal } : {}) });
    if (response.status !== 200) {
      await response.body?.cancel();
      throw new GitHttpError(response.status, response.statusText);
    }
    const declared = Number(response.headers.get('content-length') ?? NaN);
    if (declared > budget.maxBytes - budget.received) {
      // Known too large before a byte is read: do not download it at all.
      budget.received += declared;
      await response.body?.cancel();
      throw new TransferCapExceeded(budget.maxBytes);
    }
    return { contentType: response.headers.get('content-type') ?? '', body: await metered(response.body, budget, signal) };
  };
}

async function metered(stream: ReadableStream<Uint8Array> | null, budget: TransferBudget, signal: AbortSignal | undefined): Promise<Uint8Array> {
  if (!stream) return new Uint8Array(0);
  const reader = stream.getReader();
  const parts: Uint8Array[] = [];
  try {
    for (;;) {
      // A server that drips bytes must not outlive the caller's deadline.
      const { done, value } = await untilAborted(reader.read(), signal);
      if (done) return concatBytes(parts);
      budget.received += value.byteLength;
      if (budgetExceeded(budget)) throw new TransferCapExceeded(budget.maxBytes);
      parts.push(value);
    }
  } finally {
    // Stops the download when the cap is hit or the caller gives up (a no-op once it is done).
    await reader.cancel().catch(() => undefined);
  }
}

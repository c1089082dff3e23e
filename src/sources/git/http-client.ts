/**
 * @module sources/git/http-client
 * The HttpClient isomorphic-git talks smart HTTP through. It follows `isomorphic-git/http/web`
 * (which always calls the global `fetch`) but takes `fetch` as a parameter, so tests and hosts
 * choose the transport, and it counts every byte received against a budget so that a huge
 * repository fails fast instead of exhausting the Worker's memory.
 */
import type { GitHttpRequest, GitHttpResponse, HttpClient } from 'isomorphic-git';
import { untilAborted } from '../../lib/abortable.ts';
import { concatBytes } from '../../lib/bytes.ts';

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

export function createTransferBudget(maxBytes: number): TransferBudget {
  return { maxBytes, received: 0 };
}

/** True once the budget has been overrun, whatever error isomorphic-git wrapped it in. */
export function budgetExceeded(budget: TransferBudget): boolean {
  return budget.received > budget.maxBytes;
}

export function createCappedHttpClient(fetch: FetchLike, budget: TransferBudget, signal?: AbortSignal): HttpClient {
  return {
    async request({ url, method = 'GET', headers = {}, body }: GitHttpRequest): Promise<GitHttpResponse> {
      const payload = body ? await collect(body) : undefined;
      const response = await fetch(url, { method, headers, ...(payload ? { body: payload } : {}), ...(signal ? { signal } : {}) });
      const declared = Number(response.headers.get('content-length') ?? NaN);
      if (declared > budget.maxBytes - budget.received) {
        // Known too large before a byte is read: do not download it at all.
        budget.received += declared;
        await response.body?.cancel();
        throw new TransferCapExceeded(budget.maxBytes);
      }
      const responseHeaders: Record<string, string> = {};
      response.headers.forEach((value, key) => (responseHeaders[key] = value));
      return {
        url: response.url || url,
        method,
        statusCode: response.status,
        statusMessage: response.statusText,
        headers: responseHeaders,
        body: metered(response.body, budget, signal),
      };
    },
  };
}

async function* metered(stream: ReadableStream<Uint8Array> | null, budget: TransferBudget, signal: AbortSignal | undefined): AsyncGenerator<Uint8Array> {
  if (!stream) return;
  const reader = stream.getReader();
  try {
    for (;;) {
      // A server that drips bytes must not outlive the caller's deadline.
      const { done, value } = await untilAborted(reader.read(), signal);
      if (done) return;
      budget.received += value.byteLength;
      if (budgetExceeded(budget)) throw new TransferCapExceeded(budget.maxBytes);
      yield value;
    }
  } finally {
    // Stops the download when the cap is hit or the reader gives up early.
    await reader.cancel().catch(() => undefined);
  }
}

async function collect(chunks: AsyncIterable<Uint8Array>): Promise<Uint8Array<ArrayBuffer>> {
  const parts: Uint8Array[] = [];
  for await (const chunk of chunks) parts.push(chunk);
  return concatBytes(parts);
}

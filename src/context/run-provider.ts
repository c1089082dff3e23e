/**
 * @module context/run-provider
 * Runs one provider under its own deadline. The provider gets an AbortSignal, but assembly never
 * depends on it listening: the race settles at the deadline whatever the provider does.
 */
import type { Provider, ProviderRequest } from './provider.ts';

export type Settled =
  | { kind: 'returned'; value: unknown; durationMs: number }
  | { kind: 'timed-out'; durationMs: number }
  | { kind: 'failed'; reason: string; durationMs: number };

export class ProviderTimeoutError extends Error {
  override readonly name = 'ProviderTimeoutError';
}

export async function runProvider(
  provider: Provider,
  request: Omit<ProviderRequest<Record<string, unknown>>, 'signal'>,
  outer: AbortSignal | undefined,
): Promise<Settled> {
  const started = request.now();
  const controller = new AbortController();
  const elapsed = () => Math.max(0, request.now() - started);
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onOuterAbort = () => {};

  const deadline = new Promise<'timed-out' | 'aborted'>((resolve) => {
    timer = setTimeout(() => {
      controller.abort(new ProviderTimeoutError(`${provider.name} exceeded ${provider.timeoutMs} ms`));
      resolve('timed-out');
    }, provider.timeoutMs);
    onOuterAbort = () => {
      controller.abort(outer?.reason);
      resolve('aborted');
    };
    if (outer?.aborted) onOuterAbort();
    else outer?.addEventListener('abort', onOuterAbort, { once: true });
  });

  // `then` catches a provider that throws synchronously as well as one that rejects.
  const work = Promise.resolve()
    .then(() => provider.run({ ...request, signal: controller.signal }))
    .then(
      (value) => ({ ok: true as const, value }),
      (error: unknown) => ({ ok: false as const, error }),
    );

  try {
    const first = await Promise.race([work, deadline]);
    if (first === 'timed-out') return { kind: 'timed-out', durationMs: elapsed() };
    if (first === 'aborted') return { kind: 'failed', reason: `assembly aborted: ${describe(outer?.reason)}`, durationMs: elapsed() };
    if (first.ok) return { kind: 'returned', value: first.value, durationMs: elapsed() };
    if (first.error instanceof ProviderTimeoutError) return { kind: 'timed-out', durationMs: elapsed() };
    return { kind: 'failed', reason: describe(first.error), durationMs: elapsed() };
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener('abort', onOuterAbort);
  }
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}

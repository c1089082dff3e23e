/**
 * @module context/run-provider
 * Runs one provider under its own deadline. The provider gets an AbortSignal, but assembly never
 * depends on it listening: the race settles at the deadline whatever the provider does.
 */
import { withDeadline } from './deadline.ts';
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
  const settled = await withDeadline((signal) => provider.run({ ...request, signal }), provider.timeoutMs, {
    signal: outer,
    timeoutReason: new ProviderTimeoutError(`${provider.name} exceeded ${provider.timeoutMs} ms`),
  });
  const durationMs = Math.max(0, request.now() - started);
  switch (settled.kind) {
    case 'returned':
      return { kind: 'returned', value: settled.value, durationMs };
    case 'timed-out':
      return { kind: 'timed-out', durationMs };
    case 'aborted':
      return { kind: 'failed', reason: `assembly aborted: ${settled.reason}`, durationMs };
    case 'failed':
      return { kind: 'failed', reason: settled.reason, durationMs };
  }
}

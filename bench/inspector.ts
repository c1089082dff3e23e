/**
 * @module bench/inspector
 * `wrangler dev`'s V8 inspector, for the benches that profile the Worker (bench/intake-profile,
 * bench/first-turn with FIRST_TURN_PROFILE). wrangler's inspector refuses an upgrade without an
 * allowed `Origin`, which browsers send and Node's WebSocket does not.
 */
import * as z from 'zod';

export interface Inspector {
  send(method: string, params?: Record<string, unknown>): Promise<unknown>;
  close(): void;
}

const Targets = z.array(z.object({ webSocketDebuggerUrl: z.string() })).min(1);
const Message = z.object({ id: z.number().optional(), result: z.unknown().optional(), error: z.object({ message: z.string() }).optional() });

/** The Worker's inspector on `wrangler dev --inspector-port`. */
export async function inspectWrangler(inspectorPort: number): Promise<Inspector> {
  const [target] = Targets.parse(await (await fetch(`http://127.0.0.1:${inspectorPort}/json`)).json());
  return openInspector(target?.webSocketDebuggerUrl ?? '');
}

async function openInspector(url: string): Promise<Inspector> {
  // undici's WebSocket takes headers beside the standard protocols.
  const ws = new WebSocket(url, { headers: { Origin: 'http://localhost' } } as unknown as string[]);
  await new Promise<void>((resolve, reject) => {
    ws.addEventListener('open', () => resolve(), { once: true });
    ws.addEventListener('error', () => reject(new Error(`could not open wrangler's inspector at ${url}`)), { once: true });
  });
  let id = 0;
  const waiting = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  ws.addEventListener('message', (event) => {
    const message = Message.parse(JSON.parse(String(event.data)));
    const pending = message.id === undefined ? undefined : waiting.get(message.id);
    if (!pending || message.id === undefined) return;
    waiting.delete(message.id);
    if (message.error) pending.reject(new Error(message.error.message));
    else pending.resolve(message.result);
  });
  return {
    send: (method, params = {}) =>
      new Promise((resolve, reject) => {
        waiting.set(++id, { resolve, reject });
        ws.send(JSON.stringify({ id, method, params }));
      }),
    close: () => ws.close(),
  };
}

/**
 * @module test/e2e/slack-hooks
 * Slack's side of a slash command in the end-to-end tests. The response_url is https (the trigger
 * refuses anything else), and workerd completes TLS only with certificates it trusts, so while a
 * test runs, requests for the hooks host are carried to the local recorder
 * (test/setup/hooks-server.ts) over plain HTTP. Everything else the Worker fetches goes out
 * untouched. The Task objects run in the test's isolate, so they fetch through the same global.
 */
import { inject, vi } from 'vitest';
import type { RecordedHook } from '../setup/hooks-server.ts';

export const HOOKS_ORIGIN = 'https://hooks.slack.test';

/** Starts carrying hooks-host requests to the recorder; call the result to stop. */
export function routeSlackHooks(): () => void {
  const recorder = `http://127.0.0.1:${inject('hooksPort')}`;
  // Calling the global fetch detached from globalThis throws "Illegal invocation" in workerd.
  const network = globalThis.fetch.bind(globalThis);
  const spy = vi.spyOn(globalThis, 'fetch').mockImplementation((input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    if (!url.startsWith(`${HOOKS_ORIGIN}/`)) return network(input, init);
    return network(new Request(recorder + url.slice(HOOKS_ORIGIN.length), new Request(input, init)));
  });
  return () => spy.mockRestore();
}

/** What the recorder received on `path` (of a response_url on the hooks host). */
export async function recordedHooks(path: string): Promise<RecordedHook[]> {
  const response = await fetch(`http://127.0.0.1:${inject('hooksPort')}/__recorded`);
  const all = (await response.json()) as RecordedHook[];
  return all.filter((hook) => hook.path === path);
}

/** Answers the requests the recorder holds on `path` (under `/held/`); how many it answered. */
export async function releaseHooks(path: string): Promise<number> {
  const response = await fetch(`http://127.0.0.1:${inject('hooksPort')}/__release`, { method: 'POST', body: path });
  return ((await response.json()) as { released: number }).released;
}

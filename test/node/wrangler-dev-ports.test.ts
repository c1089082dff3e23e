/**
 * bench/wrangler-dev (which the browser, conformance and bench runs start the Worker with) picks
 * its ports free and distinct, and a start whose port was taken by the time wrangler bound it
 * fails as `PortTaken`, which `startWranglerDev` answers by starting again on other ports (a
 * bench run failed once in eight on "Address already in use"). A real `wrangler dev` meets a port
 * this test holds.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { freePorts, PortTaken, startOn } from '../../bench/wrangler-dev.ts';

let held: Server | undefined;
/** What reached the held port (wrangler's own health check, which it never answers). */
const reached: Socket[] = [];
afterAll(() => {
  for (const socket of reached) socket.destroy();
  return new Promise<void>((resolve) => (held ? held.close(() => resolve()) : resolve()));
});

describe("the bench's wrangler dev ports", () => {
  it('are free and different from each other', async () => {
    for (let round = 0; round < 20; round++) {
      const ports = await freePorts(3);
      expect(new Set(ports).size).toBe(3);
      for (const port of ports) expect(port).toBeGreaterThan(0);
    }
  });

  it('makes a start on a port another process holds fail as PortTaken, so it is tried again elsewhere', async () => {
    const [port = 0, inspectorPort = 0] = await freePorts(2);
    held = createServer((socket) => reached.push(socket));
    await new Promise<void>((resolve) => held?.listen(port, '127.0.0.1', resolve));
    const start = startOn(port, inspectorPort, { API_TOKENS: 'ports=ports-test-token-0123456789', VIEW_LINK_SECRET: 'ports-test-view-link-secret' }, {});
    await expect(start).rejects.toBeInstanceOf(PortTaken);
    await expect(start).rejects.toThrow(/address already in use/i);
  }, 120_000);
});

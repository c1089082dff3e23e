import { exports } from 'cloudflare:workers';
import { expect, it } from 'vitest';

it('answers the health check through the Worker entry', async () => {
  const res = await exports.default.fetch('http://groundwork.test/health');
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual({ ok: true });
});

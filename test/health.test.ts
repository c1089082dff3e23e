import { expect, it } from 'vitest';
import { checkedFetch } from './support/api.ts';

it('answers the health check through the Worker entry', async () => {
  const res = await checkedFetch('http://groundwork.test/health');
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual({ ok: true });
});

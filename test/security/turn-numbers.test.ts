import { describe, expect, inject, it } from 'vitest';
import { AssembledTurnSchema } from '../../src/context/turn-schema.ts';
import { api, settled, waitForTask } from '../support/api.ts';

const base = () => `http://127.0.0.1:${inject('gitHttpPort')}`;

describe('turn numbers in paths', () => {
  it('reads only canonical decimal: every other spelling of a number is a 400 naming n', async () => {
    const created = await api('POST', '/tasks', { body: { repo: `${base()}/sample.git`, request: 'Explain the build.' } });
    const id = String(created.json['id']);
    await waitForTask(id, settled);
    const ok = await api('GET', `/tasks/${id}/turns/0`);
    expect(ok.status).toBe(200);
    expect(AssembledTurnSchema.parse(ok.json).turn).toBe(0);

    const spellings = ['%20', '%200', '0%20', '%090', '0x0', '0X0', '0b0', '0o0', '00', '000', '+0', '-0', '0.0', '0.', '.0', '0e0', '1e0', 'Infinity', '%EF%BC%90', '0_0', '10001', '99999999999999999999'];
    for (const spelling of spellings) {
      const res = await api('GET', `/tasks/${id}/turns/${spelling}`);
      expect(res.status, spelling).toBe(400);
      expect(res.json.error, spelling).toMatchObject({ code: 'bad_request', message: expect.stringMatching(/^n: /) });
    }
  });
});

import { describe, expect, it } from 'vitest';
import { oncePromise } from '../../src/lib/once-promise.ts';

describe('oncePromise', () => {
  it('makes the promise once and hands every caller the same one', async () => {
    let made = 0;
    const load = oncePromise(async () => ++made);
    const [a, b] = await Promise.all([load(), load()]);
    expect([a, b, await load(), made]).toEqual([1, 1, 1, 1]);
  });

  it('does not keep a rejection: the callers of that attempt get it, the next call tries again', async () => {
    let attempts = 0;
    const load = oncePromise(async () => {
      attempts++;
      if (attempts === 1) throw new Error('the module could not be loaded');
      return 'loaded';
    });
    const first = [load(), load()];
    await expect(first[0]).rejects.toThrow('the module could not be loaded');
    await expect(first[1]).rejects.toThrow('the module could not be loaded');
    expect(await load()).toBe('loaded');
    expect(await load()).toBe('loaded');
    expect(attempts).toBe(2);
  });
});

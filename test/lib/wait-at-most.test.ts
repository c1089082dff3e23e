import { afterEach, describe, expect, it, vi } from 'vitest';
import { waitAtMost } from '../../src/lib/wait-at-most.ts';

describe('waitAtMost', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('answers not done at its bound when the work never settles, and leaves no timer behind', async () => {
    vi.useFakeTimers();
    const waited = waitAtMost(new Promise<never>(() => {}), 25_000);
    await vi.advanceTimersByTimeAsync(24_999);
    let settled = false;
    void waited.then(() => (settled = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await waited).toEqual({ done: false });
    expect(vi.getTimerCount()).toBe(0);
  });

  it('answers the value when the work wins, and clears its timer', async () => {
    vi.useFakeTimers();
    const waited = waitAtMost(Promise.resolve('turn'), 25_000);
    expect(await waited).toEqual({ done: true, value: 'turn' });
    expect(vi.getTimerCount()).toBe(0);
  });

  it('passes the work’s rejection on', async () => {
    await expect(waitAtMost(Promise.reject(new Error('broken')), 1_000)).rejects.toThrow('broken');
  });
});

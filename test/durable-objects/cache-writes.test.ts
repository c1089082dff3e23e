/**
 * A Task object's cache writes (durable-objects/cache-writes): every wait covers the writes handed
 * over before it, also while another wait is draining them, so a read through the cache after an
 * assembly finds what that assembly wrote. Writes are held by the test and released when it says;
 * nothing here waits on the clock except the read's own limit, which a write never released meets.
 */
import { describe, expect, it } from 'vitest';
import { CacheWrites, type SettleWrites } from '../../durable-objects/cache-writes.ts';

/** An assembly's writes that end when the test releases them, counting starts and the deadline each was given. */
function heldWrites(outcome: 'lands' | 'fails' = 'lands') {
  let release = (): void => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  const seen = { starts: 0, ended: false, deadlines: [] as number[] };
  const settle: SettleWrites = async ({ deadlineMs }) => {
    seen.starts++;
    seen.deadlines.push(deadlineMs);
    await released;
    seen.ended = true;
    if (outcome === 'fails') throw new Error('the store did not answer');
  };
  return { settle, seen, release };
}

/** Whether `promise` has settled once everything already queued has run. */
async function settledNow(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  void promise.then(() => (settled = true), () => (settled = true));
  await new Promise((resolve) => setTimeout(resolve, 0));
  return settled;
}

describe('a Task object\'s cache writes', () => {
  it('makes a wait asked while another drains the writes wait for them too', async () => {
    const writes = new CacheWrites(10_000);
    const turnZero = heldWrites();
    writes.add(turnZero.settle);
    const answer = writes.done();
    // A later turn's read, asked while turn 0's answer drains its writes.
    const read = writes.done();
    expect(await settledNow(read)).toBe(false);
    expect(turnZero.seen.starts).toBe(1);
    turnZero.release();
    await read;
    expect(turnZero.seen.ended).toBe(true);
    await answer;
    expect(turnZero.seen).toMatchObject({ starts: 1, deadlines: [10_000] });
  });

  it('ends no wait asked after a write was handed over before that write is done, also one handed over mid-drain', async () => {
    const writes = new CacheWrites(5_000);
    const first = heldWrites();
    const second = heldWrites();
    writes.add(first.settle);
    const earlier = writes.done();
    expect(await settledNow(earlier)).toBe(false);
    expect(first.seen.starts).toBe(1);
    // Handed over once the first drain is under way: a later turn's assembly.
    writes.add(second.settle);
    const later = writes.done();
    first.release();
    expect(await settledNow(later)).toBe(false);
    expect(second.seen.starts).toBe(1);
    second.release();
    await Promise.all([earlier, later]);
    expect([first.seen.starts, second.seen.starts]).toEqual([1, 1]);
  });

  it('never rejects for a write that fails: it is only a later cache miss', async () => {
    const writes = new CacheWrites(1_000);
    const failing = heldWrites('fails');
    writes.add(failing.settle);
    const done = writes.done();
    failing.release();
    await expect(done).resolves.toBeUndefined();
    await expect(writes.done()).resolves.toBeUndefined();
    expect(failing.seen.starts).toBe(1);
  });

  it('lets a read go on at its limit while a write still runs, and sooner once the writes land', async () => {
    const writes = new CacheWrites(10_000);
    const stuck = heldWrites();
    writes.add(stuck.settle);
    await writes.landed(20);
    expect(stuck.seen).toMatchObject({ starts: 1, ended: false });
    stuck.release();
    // Landed long before this limit, which the test's own timeout is shorter than.
    await writes.landed(120_000);
    expect(stuck.seen.ended).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import { startShared, untilAborted } from '../../src/lib/abortable.ts';

/** A promise settled from outside, as a shared load is. */
function deferred<T>(): { promise: Promise<T>; resolve(value: T): void; reject(error: unknown): void } {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((ok, fail) => ((resolve = ok), (reject = fail)));
  return { promise, resolve, reject };
}

/** A signal whose abort listeners are counted as they are added and removed. */
function countedSignal(): { controller: AbortController; listeners: () => number; added: () => number } {
  const controller = new AbortController();
  const { signal } = controller;
  let live = 0;
  let added = 0;
  const add = signal.addEventListener.bind(signal);
  const remove = signal.removeEventListener.bind(signal);
  signal.addEventListener = ((...args: Parameters<AbortSignal['addEventListener']>) => {
    live++;
    added++;
    add(...args);
  }) as AbortSignal['addEventListener'];
  signal.removeEventListener = ((...args: Parameters<AbortSignal['removeEventListener']>) => {
    live--;
    remove(...args);
  }) as AbortSignal['removeEventListener'];
  return { controller, listeners: () => live, added: () => added };
}

describe('untilAborted', () => {
  it('settles with the shared load, which runs on when one waiter gives up', async () => {
    const load = deferred<string>();
    const mine = new AbortController();
    const theirs = new AbortController();
    const waiting = untilAborted(load.promise, mine.signal);
    const other = untilAborted(load.promise, theirs.signal);
    mine.abort(new Error('this caller gave up'));
    await expect(waiting).rejects.toThrow('this caller gave up');
    load.resolve('the tree');
    await expect(other).resolves.toBe('the tree');
    await expect(untilAborted(load.promise, theirs.signal)).resolves.toBe('the tree');
  });

  it("passes the load's rejection on, also to waiters that come after it settled", async () => {
    const load = deferred<string>();
    const { signal } = new AbortController();
    const before = untilAborted(load.promise, signal);
    load.reject(new Error('the read-ahead failed'));
    await expect(before).rejects.toThrow('the read-ahead failed');
    await expect(untilAborted(load.promise, signal)).rejects.toThrow('the read-ahead failed');
  });

  it('refuses at once under a signal already aborted, even for a load that settled', async () => {
    const controller = new AbortController();
    controller.abort(new Error('past the deadline'));
    await expect(untilAborted(Promise.resolve(1), controller.signal)).rejects.toThrow('past the deadline');
    expect(untilAborted(Promise.resolve(1), undefined)).toBeInstanceOf(Promise);
  });

  it('adds one abort listener per signal however many waits it has', async () => {
    const { controller, listeners, added } = countedSignal();
    const loads = Array.from({ length: 50 }, () => deferred<number>());
    const waiting = loads.map((load) => untilAborted(load.promise, controller.signal));
    loads.forEach((load, i) => load.resolve(i));
    expect(await Promise.all(waiting)).toEqual(loads.map((_, i) => i));
    // A hundred more on the settled loads add none.
    await Promise.all(loads.map((load) => untilAborted(load.promise, controller.signal)));
    expect([added(), listeners()]).toEqual([1, 1]);
  });

  it('rejects every wait still pending when the signal aborts, and none that settled', async () => {
    const { controller } = countedSignal();
    const settled = deferred<string>();
    const hanging = [deferred<string>(), deferred<string>()];
    const done = untilAborted(settled.promise, controller.signal);
    const waits = hanging.map((load) => untilAborted(load.promise, controller.signal));
    settled.resolve('kept');
    await expect(done).resolves.toBe('kept');
    controller.abort(new Error('deadline'));
    for (const wait of waits) await expect(wait).rejects.toThrow('deadline');
    // The loads answering afterwards change nothing for those who gave up.
    hanging.forEach((load) => load.resolve('late'));
    await expect(untilAborted(hanging[0]!.promise, new AbortController().signal)).resolves.toBe('late');
  });
});

describe('startShared', () => {
  it('starts nothing under a lifetime already over', async () => {
    const controller = new AbortController();
    controller.abort(new Error('gone'));
    let started = 0;
    await expect(startShared(controller.signal, async () => ++started)).rejects.toThrow('gone');
    expect(started).toBe(0);
    await expect(startShared(undefined, async () => ++started)).resolves.toBe(1);
  });
});

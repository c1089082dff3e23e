// async-lock for the Worker bundle only (scripts/worker-aliases). isomorphic-git serialises its
// file operations with one `new AsyncLock({ maxPending: Infinity })` and calls only
// `acquire(key, async () => …)` (a path, or a list of them), never with a `done` callback, a
// timeout or a cap on pending calls. This keeps exactly that: per key, calls run one at a time in
// the order they asked, a refused or thrown call releases the key, and a list of keys is taken one
// after another in its order (as async-lock does). Anything else fails loudly.
const unbundled = (what) => {
  throw new Error(`async-lock's ${what} is not part of the Worker bundle: isomorphic-git calls acquire(key, async fn) only (src/sources/git/shims/async-lock.mjs)`);
};

export default class AsyncLock {
  #tails = new Map();

  constructor(options = {}) {
    for (const option of Object.keys(options)) if (option !== 'maxPending' || options.maxPending !== Infinity) unbundled(`option ${option}`);
  }

  acquire(key, fn, done, options) {
    if (done !== undefined || options !== undefined || typeof fn !== 'function' || fn.length > 0) unbundled('callback form');
    if (Array.isArray(key)) return key.reduceRight((inner, each) => () => this.acquire(each, inner), fn)();
    const previous = this.#tails.get(key) ?? Promise.resolve();
    const run = previous.then(() => fn());
    const tail = run.then(
      () => undefined,
      () => undefined,
    );
    this.#tails.set(key, tail);
    void tail.then(() => {
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    });
    return run;
  }
}

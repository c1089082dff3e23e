/**
 * @module durable-objects/lazy-class
 * A Durable Object class whose implementation is loaded when its first object is constructed, not
 * when the Worker starts. The Worker's entry must export every class wrangler.toml binds, and a
 * class's module brings its whole graph (schemas, stores, assembly) with it, so exporting the real
 * classes made every cold isolate evaluate all four graphs before its first request, whatever that
 * request was (issue 28). The class exported instead loads the implementation inside the
 * constructor's `blockConcurrencyWhile`, so no event reaches the object before the implementation
 * and its own constructor (migrations included) have run, as with the real class; each named
 * method forwards to it. The runtime finds RPC methods and handlers (`alarm`) on the prototype, so
 * a method left out of `methods` is unreachable: test/durable-objects/lazy-class.test.ts holds each
 * list equal to its class's public methods.
 */
import { DurableObject } from 'cloudflare:workers';

type DurableObjectClass<T> = new (ctx: DurableObjectState, env: Env) => T;
/** The names of `T`'s methods, what RPC and the runtime's handlers can reach. */
export type MethodName<T> = { [K in keyof T & string]: T[K] extends (...args: never[]) => unknown ? K : never }[keyof T & string];

const IMPLEMENTATION = Symbol('implementation');

/** The class is typed as the implementation, so stubs of its namespace type as the real class's. */
export function lazyDurableObject<T extends object>(load: () => Promise<DurableObjectClass<T>>, methods: readonly MethodName<T>[]): DurableObjectClass<T> {
  // Once loaded, every later object is built in its constructor, as the real class's would be:
  // a delivery creates a Task object, and only the isolate's first waits for the load.
  let Loaded: DurableObjectClass<T> | undefined;
  class Lazy extends DurableObject<Env> {
    [IMPLEMENTATION]: T | undefined;

    constructor(ctx: DurableObjectState, env: Env) {
      super(ctx, env);
      if (Loaded) {
        this[IMPLEMENTATION] = new Loaded(ctx, env);
        return;
      }
      // A failed load fails this wait, which resets the object: the event that woke it gets the error.
      void ctx.blockConcurrencyWhile(async () => {
        Loaded ??= await load();
        this[IMPLEMENTATION] = new Loaded(ctx, env);
      });
    }
  }
  for (const name of methods) {
    Object.defineProperty(Lazy.prototype, name, {
      configurable: true,
      writable: true,
      value: function forward(this: Lazy, ...args: unknown[]): unknown {
        const implementation = this[IMPLEMENTATION];
        if (implementation === undefined) throw new Error(`${name} reached a Durable Object whose implementation is not loaded`);
        return (implementation[name] as (...args: unknown[]) => unknown).apply(implementation, args);
      },
    });
  }
  return Lazy as unknown as DurableObjectClass<T>;
}

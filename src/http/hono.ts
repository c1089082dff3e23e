/**
 * @module http/hono
 * Hono with its RegExpRouter alone. Hono's default class bundles three routers (SmartRouter picks
 * RegExpRouter, and falls back to TrieRouter for patterns RegExpRouter does not take); every
 * route here is one RegExpRouter takes, so the Worker carries and compiles one router, not three.
 * A pattern it refused would throw on the first request to its group, which
 * test/http/route-groups.test.ts makes for every route.
 */
import { HonoBase, type HonoOptions } from 'hono/hono-base';
import { RegExpRouter } from 'hono/router/reg-exp-router';
import type { BlankEnv, BlankSchema, Env, Schema } from 'hono/types';

export class Hono<E extends Env = BlankEnv, S extends Schema = BlankSchema, BasePath extends string = '/'> extends HonoBase<E, S, BasePath> {
  constructor(options: HonoOptions<E> = {}) {
    super(options);
    this.router = options.router ?? new RegExpRouter();
  }
}

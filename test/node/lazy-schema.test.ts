/**
 * `lazySchema`: a module-level schema that costs nothing until it is used, then behaves as the
 * schema itself (parse, embedding, discriminated unions, JSON Schema) and is built once.
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { lazySchema } from '../../src/lib/lazy-schema.ts';

describe('lazySchema', () => {
  it('builds nothing until first used, then once, and unwrap() hands back that same schema', () => {
    let builds = 0;
    const schema = lazySchema(() => {
      builds += 1;
      return z.object({ id: z.string().min(1) });
    });
    expect(builds).toBe(0);
    expect(schema.parse({ id: 'a' })).toEqual({ id: 'a' });
    expect(schema.safeParse({ id: '' }).success).toBe(false);
    expect(schema.unwrap()).toBe(schema.unwrap());
    expect(schema.unwrap().extend({ n: z.number() }).parse({ id: 'a', n: 1 })).toEqual({ id: 'a', n: 1 });
    expect(builds).toBe(1);
  });

  it('works as an option of a discriminated union, a field, and in JSON Schema', () => {
    const ok = lazySchema(() => z.object({ status: z.literal('ok'), value: z.number() }));
    const failed = lazySchema(() => z.object({ status: z.literal('failed'), reason: z.string() }));
    const result = z.discriminatedUnion('status', [ok, failed]);
    expect(result.parse({ status: 'failed', reason: 'x' })).toEqual({ status: 'failed', reason: 'x' });
    const issues = result.safeParse({ status: 'other' }).error?.issues ?? [];
    expect(issues[0]).toMatchObject({ code: 'invalid_union', path: ['status'] });
    const wrapper = z.object({ result: result.optional() });
    expect(wrapper.parse({})).toEqual({});
    expect(z.toJSONSchema(ok)).toMatchObject({ type: 'object', properties: { status: { const: 'ok' }, value: { type: 'number' } }, required: ['status', 'value'] });
  });
});

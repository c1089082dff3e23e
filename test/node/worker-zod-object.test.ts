// zod's `z.object()` is a `$ZodObjectJIT`: where the runtime allows `new Function` it compiles a
// parser per object. workerd never does (zod's probe answers false on Cloudflare, util.allowsEval;
// test/lib/zod-eval holds that in workerd), so the Worker's build puts `$ZodObject`, the parser the
// JIT falls back to, in its place (scripts/worker-rewrites `zodForWorkerd`) and the compiler
// leaves the upload; the build also leaves out zod's default memoizer, which lets an input holding
// a reference cycle parse through a recursive schema: what the Worker parses came from JSON, which
// holds none. Bundled here with and without the plugin from the installed zod: the compiler and
// the memoizer must be gone and every answer the same, a recursive schema's over trees, shared
// subtrees and errors deep down included (in Node the unpatched bundle does compile, so this also
// holds the two parsers to each other).
import { describe, expect, it } from 'vitest';
import { build, type Plugin } from 'esbuild';
import { zodForWorkerd } from '../../scripts/worker-rewrites.ts';

const SCHEMAS = `
import * as z from 'zod';
const Entry = z.lazy(() => z.object({ name: z.string(), mode: z.number().int(), object: z.object({ entries: z.array(Entry).nullish(), text: z.string().nullish() }).nullish() }));
const Item = z.object({ path: z.string().min(1), size: z.number().int().nonnegative().optional(), kind: z.enum(['file', 'dir']).default('file') });
export const schemas = {
  item: Item,
  list: z.object({ items: z.array(Item).max(3), next: z.string().nullable() }),
  strict: z.strictObject({ id: z.string() }),
  loose: z.looseObject({ id: z.string() }),
  catchall: z.object({ id: z.string() }).catchall(z.number()),
  transformed: z.object({ n: z.string().transform((s) => s.length) }),
  // A tree as the GraphQL read-ahead's answer is one (sources/github/graphql-answer).
  tree: Entry,
  union: z.union([z.object({ a: z.string() }), z.array(z.number()).max(2)]),
  record: z.record(z.string(), z.array(Item)),
};
`;

async function bundleSchemas(plugins: Plugin[]): Promise<string> {
  const result = await build({ stdin: { contents: SCHEMAS, resolveDir: process.cwd(), loader: 'js' }, bundle: true, format: 'esm', write: false, minify: true, plugins });
  return result.outputFiles[0]?.text ?? '';
}

/** One subtree twice in a tree: what the memoizer keys its cache on, an object met again. */
const SHARED = { name: 'shared', mode: 16384, object: { entries: [{ name: 'leaf', mode: 33188 }] } };

const INPUTS: Record<string, unknown[]> = {
  item: [{ path: 'a' }, { path: '', size: -1 }, { path: 'a', kind: 'link' }, { path: 'a', extra: 1 }, null, 'a', [], { __proto__: { path: 'x' } }],
  list: [{ items: [{ path: 'a' }, { path: 'b', size: 2 }], next: null }, { items: [{}, {}, {}, {}], next: 1 }, { items: 'no' }],
  strict: [{ id: 'a' }, { id: 'a', other: true }, {}],
  loose: [{ id: 'a', other: true }, { id: 1 }],
  catchall: [{ id: 'a', n: 1 }, { id: 'a', n: 'x' }],
  transformed: [{ n: 'abc' }, { n: 3 }],
  tree: [
    { name: 'r', mode: 16384, object: { entries: [{ name: 'a', mode: 33188, object: { text: 'x' } }, { name: 'd', mode: 16384, object: { entries: [{ name: 'b', mode: 33188 }] } }] } },
    { name: 'r', mode: 16384, object: { entries: [SHARED, SHARED, { name: 'bad', mode: 1.5 }] } },
    { name: 'r', mode: 16384, object: { entries: [{ name: 'd', mode: 16384, object: { entries: [{ name: 7, mode: 0 }] } }] } },
    { name: 'r', mode: 16384, object: null },
    'r',
  ],
  union: [{ a: 'x' }, [1, 2], [1, 2, 3], { a: 1 }, null],
  record: [{ src: [{ path: 'a' }], docs: [] }, { src: [{ path: '' }] }, { src: 'x' }],
};

type Schemas = Record<string, { safeParse(input: unknown): unknown }>;

async function load(code: string): Promise<Schemas> {
  return ((await import(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`)) as { schemas: Schemas }).schemas;
}

describe("the Worker build's zod objects", () => {
  it("carry no parser compiler: $ZodObject's parser, which the JIT falls back to in workerd", async () => {
    const [plain, patched] = await Promise.all([bundleSchemas([]), bundleSchemas([zodForWorkerd()])]);
    expect(plain).toContain('const newResult = {};');
    expect(patched).not.toContain('const newResult = {};');
    expect(patched).not.toContain('new F("")');
    expect(patched.length).toBeLessThan(plain.length);
  });

  it("carry no memoizer: zod's cycle support for inputs JSON never makes", async () => {
    const [plain, patched] = await Promise.all([bundleSchemas([]), bundleSchemas([zodForWorkerd()])]);
    expect(plain).toContain('Cannot parse a reference cycle');
    expect(patched).not.toContain('Cannot parse a reference cycle');
  });

  it('give every answer the unpatched zod gives', async () => {
    const [plain, patched] = await Promise.all([bundleSchemas([]).then(load), bundleSchemas([zodForWorkerd()]).then(load)]);
    for (const [name, inputs] of Object.entries(INPUTS)) {
      for (const input of inputs) expect(patched[name]?.safeParse(input), `${name} ${JSON.stringify(input)}`).toEqual(plain[name]?.safeParse(input));
    }
  });
});

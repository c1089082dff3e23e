// zod's classic `ZodString` methods for string formats (`z.string().email()`, `.uuid()`,
// `.datetime()`...) leave the Worker's upload and the CLI's bundles (scripts/worker-rewrites
// `withoutStringFormats`): only the methods go, so a module that called one would fail where the
// build runs. Held here: no module calls one (the methods' names read from the installed zod, so a
// format zod adds is counted), the formats Groundwork writes as functions (`z.url()`,
// `z.iso.date()`, `z.iso.datetime()`) check as zod's own with the rewrite, the unused formats'
// classes are gone from such a bundle, and a dependency that imports zod fails the build (its calls
// are not ours to read).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { zodWithoutStringFormats } from '../../scripts/worker-rewrites.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CLASSIC = join(dirname(createRequire(import.meta.url).resolve('zod')), 'v4', 'classic', 'schemas.js');

/** The method names of ZodString's format object in the installed zod (what the rewrite takes out). */
function formatMethods(): string[] {
  const source = readFileSync(CLASSIC, 'utf8');
  const start = source.indexOf('core.$constructor("ZodString", (inst, def) => {');
  const end = source.indexOf('\nexport function string(params)', start);
  expect(start, 'zod has its ZodString where this test looks').toBeGreaterThan(0);
  return [...source.slice(start, end).matchAll(/^ {4}(\w+)\(params\) \{$/gm)].map((match) => match[1] ?? '');
}

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

const SCHEMAS = `
import * as z from 'zod';
export const schemas = {
  url: z.url(),
  date: z.iso.date(),
  datetime: z.iso.datetime({ offset: true }),
  text: z.string().min(2).max(5).regex(/^[a-z]+$/),
};
`;

async function bundle(plugins: Plugin[]): Promise<string> {
  const result = await build({ stdin: { contents: SCHEMAS, resolveDir: ROOT, loader: 'js' }, bundle: true, format: 'esm', write: false, minify: true, plugins });
  return result.outputFiles[0]?.text ?? '';
}

const INPUTS: Record<string, unknown[]> = {
  url: ['https://example.com/a?b=c', 'not a url', 'mailto:x@y', 3],
  date: ['2026-12-07', '2024-02-29', '2023-02-29', '2026-13-01', 20261207],
  datetime: ['2026-12-07T17:36:00Z', '2026-12-07T17:36:00+01:00', '2026-12-07 17:36', ''],
  text: ['abc', 'a', 'abcdef', 'ABC', null],
};

describe("zod's string format methods out of the bundles", () => {
  it('are called by no module of the Worker or the CLI', () => {
    const methods = formatMethods();
    expect(methods).toEqual(expect.arrayContaining(['email', 'uuid', 'url', 'datetime', 'date', 'ipv4', 'jwt']));
    const call = new RegExp(String.raw`\)\s*\.(${methods.join('|')})\(`);
    const callers = [...sources(join(ROOT, 'src')), ...sources(join(ROOT, 'durable-objects'))].filter((path) => call.test(readFileSync(path, 'utf8')));
    expect(callers).toEqual([]);
  });

  it('leaves the format functions checking as zod does, and drops the formats no one names', async () => {
    const [plain, rewritten] = await Promise.all([bundle([]), bundle([zodWithoutStringFormats()])]);
    expect(plain).toContain('"ZodEmail"');
    expect(rewritten).not.toContain('"ZodEmail"');
    expect(rewritten).not.toContain('"ZodIPv6"');
    expect(rewritten.length).toBeLessThan(plain.length);
    const load = async (code: string) => ((await import(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`)) as { schemas: Record<string, { safeParse(input: unknown): unknown }> }).schemas;
    const [theirs, ours] = await Promise.all([load(plain), load(rewritten)]);
    for (const [name, inputs] of Object.entries(INPUTS)) {
      for (const input of inputs) expect(JSON.stringify(ours[name]?.safeParse(input)), `${name} ${String(input)}`).toBe(JSON.stringify(theirs[name]?.safeParse(input)));
    }
    expect((ours['text'] as unknown as { email?: unknown }).email).toBeUndefined();
  });

  it('fails a build in which a dependency imports zod, naming it', async () => {
    const dependency: Plugin = {
      name: 'a-dependency',
      setup(b) {
        b.onResolve({ filter: /^a-dependency$/ }, () => ({ path: join(ROOT, 'node_modules', 'a-dependency', 'index.js') }));
        b.onLoad({ filter: /[\\/]a-dependency[\\/]index\.js$/ }, () => ({ contents: "import * as z from 'zod'; export const email = z.string().email();", loader: 'js', resolveDir: ROOT }));
      },
    };
    const bundled = build({ stdin: { contents: "export { email } from 'a-dependency';", resolveDir: ROOT, loader: 'js' }, bundle: true, format: 'esm', write: false, logLevel: 'silent', plugins: [dependency, zodWithoutStringFormats()] });
    await expect(bundled).rejects.toThrow(/a-dependency[\\/]index\.js imports zod, whose string format methods this build leaves out/);
    // Our own modules import it freely.
    await expect(bundle([zodWithoutStringFormats()])).resolves.toContain('ZodString');
  });
});

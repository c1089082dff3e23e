/**
 * @module bench/startup-schemas
 * How many zod schemas and checks the Worker builds before its first request, and which modules
 * build them: most of its start-up CPU is zod construction (issue 28), so the count explains the
 * start-up figure and shows a module that builds its schemas eagerly again (`lib/lazy-schema`).
 * An unminified build (`wrangler deploy --dry-run --minify=false`) keeps esbuild's `// path`
 * comment above each module; zod's `$constructor` gets one line that records a stack per
 * instance; Miniflare evaluates the bundle and the first frame outside zod names the module.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { convertV4MiniflareOptions, Miniflare } from 'miniflare';
import { unstable_readConfig } from 'wrangler';
import * as z from 'zod';

const WRANGLER = fileURLToPath(new URL('../node_modules/wrangler/bin/wrangler.js', import.meta.url));
const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** The first statement of every zod instance's constructor (zod/v4/core/core.js), as esbuild prints it. */
const CONSTRUCTOR = '  function _(def) {\n    const inst = params?.Parent ? newError(Definition) : this;';
const COUNTER = '  function _(def) {\n    { Error.stackTraceLimit = 40; (globalThis.__schemaStacks ??= []).push(new Error().stack); }\n    const inst = params?.Parent ? newError(Definition) : this;';
const TOP = 5;
const LAZY_HELPERS = new Set(['src/lib/lazy-schema.ts', 'src/lib/once.ts']);

export interface StartupSchemas {
  total: number;
  /** Of the total, `z.lazy` wrappers (`lib/lazy-schema`), which build nothing until first use. */
  lazy: number;
  /** Schemas and checks built by each module, most first, and how many of them are lazy wrappers. */
  byModule: Array<{ module: string; count: number; lazy: number }>;
}

/** Undefined when zod's constructor no longer reads as this count expects (a zod upgrade). */
export async function countStartupSchemas(): Promise<StartupSchemas | undefined> {
  const out = mkdtempSync(join(tmpdir(), 'groundwork-bench-schemas-'));
  try {
    execFileSync(process.execPath, [WRANGLER, 'deploy', '--dry-run', '--minify=false', '--outdir', out], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
    const code = readFileSync(join(out, 'index.js'), 'utf8');
    if (!code.includes(CONSTRUCTOR)) return undefined;
    const stacks = await evaluate(code.replace(CONSTRUCTOR, COUNTER));
    const modules = moduleOfLine(code);
    const byModule = new Map<string, { module: string; count: number; lazy: number }>();
    let lazy = 0;
    for (const stack of stacks) {
      const module = firstModuleOutsideZod(stack, modules);
      const counted = byModule.get(module) ?? { module, count: 0, lazy: 0 };
      const isLazy = /^\s+at new ZodLazy\b/m.test(stack.split('\n')[1] ?? '');
      counted.count++;
      if (isLazy) counted.lazy++, lazy++;
      byModule.set(module, counted);
    }
    return { total: stacks.length, lazy, byModule: [...byModule.values()].sort((a, b) => b.count - a.count) };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

export async function benchStartupSchemas(): Promise<string> {
  const counted = await countStartupSchemas();
  if (!counted) return "zod schemas built at start-up: not counted (zod's constructor no longer reads as this bench expects; see bench/startup-schemas.ts)";
  const top = counted.byModule.slice(0, TOP).map(({ module, count }) => `${module} ${count}`);
  return `zod schemas and checks built at start-up: ${counted.total.toLocaleString('en-US')} in ${counted.byModule.length} modules, ${counted.lazy} of them lazy wrappers that build on first use (most: ${top.join(', ')})`;
}

async function evaluate(code: string): Promise<string[]> {
  const config = unstable_readConfig({ config: join(ROOT, 'wrangler.toml') });
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      name: 'schemas',
      modules: [
        { type: 'ESModule', path: 'entry.mjs', contents: "export default { async fetch() { globalThis.__schemaStacks = []; await import('./index.js'); return Response.json(globalThis.__schemaStacks); } };" },
        { type: 'ESModule', path: 'index.js', contents: code },
      ],
      compatibilityDate: config.compatibility_date ?? '2026-11-01',
      compatibilityFlags: config.compatibility_flags,
    }),
  );
  try {
    const response = await mf.dispatchFetch('https://example.com');
    if (!response.ok) throw new Error(`the counting Worker answered ${response.status}: ${await response.text()}`);
    return z.array(z.string()).parse(await response.json());
  } finally {
    await mf.dispose();
  }
}

/** For each 1-based line of the bundle, the module esbuild's nearest `// path` comment above it names. */
function moduleOfLine(code: string): string[] {
  const modules: string[] = [''];
  let current = '?';
  for (const line of code.split('\n')) {
    const comment = /^\/\/ ((?:src|durable-objects|node_modules)\/\S+)$/.exec(line);
    if (comment) current = comment[1] ?? current;
    modules.push(current);
  }
  return modules;
}

function firstModuleOutsideZod(stack: string, modules: readonly string[]): string {
  for (const frame of stack.split('\n').slice(1)) {
    const line = /index\.js:(\d+):\d+/.exec(frame)?.[1];
    if (line === undefined) continue;
    const module = modules[Number(line)] ?? '?';
    // The module that asked for a lazy schema built it, not the helper.
    if (!module.includes('node_modules/zod/') && !LAZY_HELPERS.has(module)) return module;
  }
  return '?';
}

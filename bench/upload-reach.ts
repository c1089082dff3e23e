/**
 * @module bench/upload-reach
 * What a cold isolate evaluates for each first use, read from the build's module graph (esbuild's
 * metafile): a module's static imports are evaluated with it, an `import()` only when it runs.
 * Deterministic, unlike timing: `npm run bench -- startup` prints it and
 * test/node/worker-modules.test.ts holds the accept path to it (issue 28).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Metafile } from 'esbuild';
import { buildWorker } from '../scripts/worker-build.ts';

/** What each first use loads: the entry, and the route group and objects it reaches. */
export const FIRST_USES = {
  'start-up': ['src/index.ts'],
  'GET /health': ['src/index.ts', 'src/routes/groups/service.ts'],
  // Its intake shard (with the other small objects, one module); the Task object comes after the answer.
  'a webhook delivery': ['src/index.ts', 'src/routes/groups/intake.ts', 'durable-objects/small-objects.ts'],
  'a delivery handed on (its Task object)': ['durable-objects/task.ts', 'durable-objects/small-objects.ts'],
  'GET /tasks': ['src/index.ts', 'src/routes/groups/api.ts', 'durable-objects/small-objects.ts'],
  'a task page': ['src/index.ts', 'src/routes/groups/pages.ts', 'durable-objects/task.ts'],
  'an MCP tool call': ['src/index.ts', 'src/routes/groups/api.ts', 'durable-objects/task.ts'],
  'the first assembly (a Task object)': ['durable-objects/task.ts', 'durable-objects/task-wiring.ts'],
  // The consent page, GitHub's callback and the token endpoint: forwarded to the authorization Worker.
  'a sign-in (forwarded)': ['src/index.ts', 'src/routes/groups/auth-forward.ts'],
  // A person's access token on /mcp or the REST API: the resource server, which asks the authorization Worker.
  "a person's token (the resource server)": ['src/index.ts', 'src/routes/groups/api.ts', 'src/auth/resource-server.ts'],
} as const satisfies Record<string, readonly string[]>;

/** Source modules evaluated with `roots`: their static imports, transitively, never an `import()`. */
export function staticReach(metafile: Metafile, roots: readonly string[]): Set<string> {
  for (const root of roots) if (!metafile.inputs[root]) throw new Error(`${root} is not in the build (moved or renamed? update bench/upload-reach.ts)`);
  const seen = new Set<string>();
  const pending = [...roots];
  for (let module = pending.pop(); module !== undefined; module = pending.pop()) {
    if (seen.has(module)) continue;
    seen.add(module);
    for (const imported of metafile.inputs[module]?.imports ?? []) if (!imported.external && imported.kind !== 'dynamic-import') pending.push(imported.path);
  }
  return seen;
}

/** Minified bytes of `modules` in the upload. */
export function outputBytes(metafile: Metafile, modules?: ReadonlySet<string>): number {
  let bytes = 0;
  for (const output of Object.values(metafile.outputs)) for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) if (!modules || modules.has(input)) bytes += bytesInOutput;
  return bytes;
}

/** The main Worker's build (src/index.ts), or the authorization Worker's (`src/auth-worker.ts`). */
export async function builtMetafile(entry?: string): Promise<Metafile> {
  const out = mkdtempSync(join(tmpdir(), 'groundwork-bench-reach-'));
  try {
    return (await buildWorker({ outdir: out, ...(entry === undefined ? {} : { entry }) })).metafile;
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

export async function benchUploadReach(): Promise<string> {
  const metafile = await builtMetafile();
  const kib = (bytes: number) => (bytes / 1024).toFixed(0);
  const uses = Object.entries(FIRST_USES).map(([use, roots]) => `${use} ${kib(outputBytes(metafile, staticReach(metafile, roots)))}`);
  return `code a cold isolate evaluates for each first use (KiB of the ${kib(outputBytes(metafile))} KiB upload, minified; zod is about 100 of each but start-up's): ${uses.join(', ')}`;
}

// The Worker's chunks are named by what they are, not by esbuild's hash (scripts/worker-build
// `stableChunkNames`): `chunks/<entry>.mjs` for a module an `import()` loads, `chunks/chunk-<n>.mjs`
// for a shared one. The hash covered the source maps' paths, so the same sources built in two
// places gave other names and another gzipped total (the budget's figure moved by a few tenths);
// now the upload is the same bytes wherever it is built, and every import names a module in it.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildWorker, ENTRY } from '../../scripts/worker-build.ts';

const work = mkdtempSync(join(tmpdir(), 'groundwork-chunk-names-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("the Worker's chunk names", () => {
  it('are the same, with the same bytes, wherever the upload is built', async () => {
    const [here, deeper] = await Promise.all([buildWorker({ outdir: join(work, 'a') }), buildWorker({ outdir: join(work, 'b', 'c', 'd') })]);
    expect(deeper.modules).toEqual(here.modules);
    for (const module of here.modules) expect(readFileSync(join(deeper.dir, module), 'utf8'), module).toBe(readFileSync(join(here.dir, module), 'utf8'));
  });

  it("name each loaded-on-first-use module after its entry and number the shared ones, and every import names one of them", async () => {
    const { dir, modules, metafile } = await buildWorker({ outdir: join(work, 'names') });
    expect(modules[0]).toBe(ENTRY);
    for (const module of modules.slice(1)) expect(module).toMatch(/^chunks\/(chunk-[1-9][0-9]*|[a-z][a-z-]*[a-z])\.mjs$/);
    for (const entry of ['task', 'task-wiring', 'small-objects', 'api', 'pages', 'intake', 'service']) expect(modules).toContain(`chunks/${entry}.mjs`);
    const known = new Set(modules);
    let imports = 0;
    for (const module of modules) {
      const text = readFileSync(join(dir, module), 'utf8');
      for (const [, specifier] of text.matchAll(/(?:from|import|import\()\s*"(\.[^"]+)"/g)) {
        const resolved = join(module, '..', specifier ?? '');
        expect(known.has(resolved), `${module} imports ${specifier}`).toBe(true);
        imports += 1;
      }
    }
    expect(imports).toBeGreaterThan(modules.length);
    const outputs = Object.keys(metafile.outputs).filter((file) => file.endsWith('.mjs')).map((file) => file.slice(file.indexOf('names/') + 'names/'.length));
    expect(outputs.sort()).toEqual([...modules].sort());
  });
});

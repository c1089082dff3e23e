/**
 * The Worker's modules name their source maps only when asked (scripts/worker-build): what
 * `wrangler deploy` uploads carries no `//# sourceMappingURL=` line (about 1 KiB gzipped that the
 * deployed Worker never reads, since wrangler uploads no map), while `wrangler dev`'s build
 * (scripts/build with WRANGLER_COMMAND=dev) keeps them for stack traces mapped to the sources.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildWorker } from '../../scripts/worker-build.ts';

const work = mkdtempSync(join(tmpdir(), 'groundwork-source-maps-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("the Worker build's source maps", () => {
  it('are written beside every module of the upload, which names none of them', async () => {
    const { dir, modules } = await buildWorker({ outdir: join(work, 'upload') });
    for (const module of modules) {
      expect(readFileSync(join(dir, module), 'utf8'), module).not.toContain('sourceMappingURL');
      expect(existsSync(join(dir, `${module}.map`)), module).toBe(true);
    }
  });

  it("are named by every module when asked, as wrangler dev's build asks", async () => {
    const { dir, modules } = await buildWorker({ outdir: join(work, 'dev'), sourceMapComments: true });
    for (const module of modules) {
      const name = module.split('/').pop();
      expect(readFileSync(join(dir, module), 'utf8').trimEnd(), module).toMatch(new RegExp(`//# sourceMappingURL=${name?.replace(/\./g, '\\.')}\\.map$`));
    }
  });
});

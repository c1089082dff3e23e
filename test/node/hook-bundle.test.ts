/**
 * What the session-start hook's bundle carries: every module in it is evaluated at every session
 * start and after every compaction (issue 56 goal 1), and a module-level schema is an object zod
 * builds then. The transcript's item schemas and the checks' verdicts are the Worker's and the MCP
 * server's: the hook reads a turn's context through context/host-items. Built with esbuild's
 * metafile from the hook's entry, as scripts/build bundles it.
 */
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { COMMAND_BUNDLES } from '../../src/cli/command-bundles.ts';

const ROOT = new URL('../..', import.meta.url).pathname;

describe("the session-start hook's bundle", () => {
  it('holds neither the transcript schemas nor the checks, the MCP answers or the routes', async () => {
    const result = await build({ absWorkingDir: ROOT, entryPoints: [COMMAND_BUNDLES.hook], bundle: true, format: 'cjs', platform: 'node', target: 'node22', write: false, metafile: true, external: ['miniflare'], logLevel: 'silent' });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs).toContain('src/context/host-items.ts');
    expect(inputs.filter((input) => input === 'src/context/transcript.ts' || /^src\/(checks|mcp|routes|durable-objects)\//.test(input))).toEqual([]);
  });
});

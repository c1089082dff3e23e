/**
 * The package as a user installs it: `npm pack`, then `npm install -g ./<tarball>` into a
 * temporary prefix (and `npm install -g .` from this checkout), then the installed `groundwork`
 * with the machine's older Node first on PATH: `--version`, `context`, a hook, `run` (the Worker in
 * Miniflare) and the MCP server through the official SDK client. The install reads package metadata from the npm registry (the
 * tarballs come from npm's cache where `npm ci` left them), as any user's install does.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { meetsMinimum, nodePackageName } from '../../src/cli/launcher/find-node.ts';
import { HOOK_PROTOCOLS } from '../../src/cli/hooks/protocols.ts';
import { createGitRepo, type GitFixture } from '../support/git-fixtures.ts';
import { BUILT_CLI } from './cli-support.ts';

const ROOT = dirname(dirname(BUILT_CLI));
const RULE = 'Run `npm test` before committing.';
const INSTALL_MS = 600_000;

/** The oldest `node` on PATH: Debian's 20 where there is one, so the launcher has to find another. */
function oldestNodeDir(): string {
  const found = (process.env['PATH'] ?? '')
    .split(delimiter)
    .filter((dir) => dir !== '' && existsSync(join(dir, 'node')))
    .map((dir) => ({ dir, version: execFileSync(join(dir, 'node'), ['--version'], { encoding: 'utf8' }).trim() }));
  return (found.find((node) => !meetsMinimum(node.version)) ?? found[0] ?? { dir: dirname(process.execPath) }).dir;
}

let scratch: string;
let repo: GitFixture;
let tarball: string;
let packed: string[];
const nodeDir = oldestNodeDir();

function npm(args: string[], cwd: string): string {
  return execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, npm_config_update_notifier: 'false' }, timeout: INSTALL_MS, maxBuffer: 64 * 1024 * 1024 });
}

/** `groundwork` as a shell finds it: the prefix's bin, after the old Node's directory. */
function groundwork(prefix: string, args: string[], input = '', cwd = repo.dir) {
  return spawnSync(join(prefix, 'bin', 'groundwork'), args, { cwd, input, encoding: 'utf8', env: { PATH: [nodeDir, join(prefix, 'bin')].join(delimiter), HOME: scratch, GROUNDWORK_STATE_DIR: join(scratch, 'state') }, timeout: 120_000 });
}

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'groundwork-package-'));
  repo = createGitRepo();
  repo.write('AGENTS.md', `# Rules\n\n${RULE}\n`);
  repo.commitAll('rules');
  // dist/ is built (npm test's pretest): packing need not build it again.
  const [report] = JSON.parse(npm(['pack', '--ignore-scripts', '--json', '--pack-destination', scratch], ROOT)) as Array<{ filename: string; files: Array<{ path: string }> }>;
  if (!report) throw new Error('npm pack reported nothing');
  tarball = join(scratch, report.filename);
  packed = report.files.map((file) => file.path);
}, INSTALL_MS);
afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
  repo?.remove();
}, INSTALL_MS);

describe('the packed package', () => {
  it('is groundwork-context, with the launcher, the CLI, the agent integrations and no sources', () => {
    expect(tarball).toMatch(/groundwork-context-\d+\.\d+\.\d+\.tgz$/);
    for (const path of ['dist/groundwork.cjs', 'dist/cli.cjs', 'dist/cli.js', 'package.json', 'README.md', 'integrations/claude-code/.claude-plugin/plugin.json', 'integrations/gemini-cli/gemini-extension.json']) expect(packed).toContain(path);
    expect(packed.filter((path) => path.startsWith('src/') || path.startsWith('test/'))).toEqual([]);
  });

  it(
    `installs with npm install -g into a prefix and runs there with ${nodeDir}/node first on PATH`,
    async () => {
      const prefix = join(scratch, 'global');
      npm(['install', '-g', tarball, '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], scratch);
      // Only the command: the package's own Node is not put on the user's PATH.
      expect(readdirSync(join(prefix, 'bin'))).toEqual(['groundwork']);
      const own = nodePackageName(process.platform, process.arch);
      if (own !== undefined) expect(existsSync(join(prefix, 'lib', 'node_modules', 'groundwork-context', 'node_modules', own, 'package.json'))).toBe(true);

      expect(groundwork(prefix, ['--version'])).toMatchObject({ status: 0, stdout: expect.stringMatching(/^groundwork \d+\.\d+\.\d+\n$/) });
      const context = groundwork(prefix, ['context']);
      expect(context.status, context.stderr).toBe(0);
      expect(context.stdout).toContain(RULE);
      const hook = groundwork(prefix, ['hook', 'session-start', '--client', 'claude-code'], JSON.stringify({ session_id: 's', transcript_path: '/tmp/t.jsonl', cwd: repo.dir, hook_event_name: 'SessionStart', source: 'compact' }));
      expect(hook.status, hook.stderr).toBe(0);
      const output = HOOK_PROTOCOLS['claude-code'].events['session-start']?.output().parse(JSON.parse(hook.stdout)) as { hookSpecificOutput: { additionalContext: string } };
      // Claude Code loads AGENTS.md itself (docs/clients.md): the hook names it, by blob, and does not repeat it.
      expect(output.hookSpecificOutput.additionalContext).toMatch(/Claude Code loads these rule files itself at start, so they are not repeated here: AGENTS\.md \(blob [0-9a-f]{12}\)/);
      expect(output.hookSpecificOutput.additionalContext).not.toContain(RULE);

      // The whole service too: the Worker in Miniflare, from the installed package.
      const run = groundwork(prefix, ['run']);
      expect(run.status, run.stderr).toBe(0);
      expect(run.stdout).toContain(RULE);

      // The MCP server an agent starts, with no repo named: the repository it runs in.
      const transport = new StdioClientTransport({ command: join(prefix, 'bin', 'groundwork'), args: ['mcp'], cwd: repo.dir, env: { PATH: [nodeDir, join(prefix, 'bin')].join(delimiter), HOME: scratch }, stderr: 'pipe' });
      const client = new Client({ name: 'groundwork-install-test', version: '1.0.0' });
      await client.connect(transport);
      try {
        const result = (await client.callTool({ name: 'assemble_context', arguments: { request: 'What are the rules?' } })) as CallToolResult;
        const [first] = result.content;
        expect(result.isError ?? false).toBe(false);
        expect(first?.type === 'text' ? first.text : '').toContain(RULE);
      } finally {
        await client.close();
      }
    },
    INSTALL_MS,
  );

  it(
    'installs from this checkout with npm install -g . and runs the same way',
    () => {
      const prefix = join(scratch, 'linked');
      npm(['install', '-g', '.', '--prefix', prefix, '--offline', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], ROOT);
      expect(groundwork(prefix, ['--version'])).toMatchObject({ status: 0, stdout: expect.stringMatching(/^groundwork \d+\.\d+\.\d+\n$/) });
      const context = groundwork(prefix, ['context', '--summary']);
      expect(context.status, context.stderr).toBe(0);
    },
    INSTALL_MS,
  );
});

/**
 * `groundwork mcp` as an agent starts it: the built `dist/cli.js` spawned by the official SDK's
 * `StdioClientTransport`, on a real git repository; every tool with good and bad input, the
 * resources, and stdout carrying protocol frames only.
 */
import { execFile, spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitRepo, type GitFixture } from '../support/git-fixtures.ts';
import { BUILT_CLI } from './cli-support.ts';

const RULE = 'Run `npm test` before committing.';
const SRC_RULE = 'Tests live beside the code.';
const SKILL_BODY = 'Run the release script, then tag.';

let repo: GitFixture;
let head: string;
let client: Client;
let stderr: () => string = () => '';

async function connect(args: string[] = [], env: Record<string, string> = {}, cwd?: string): Promise<{ client: Client; stderr: () => string }> {
  let said = '';
  const transport = new StdioClientTransport({ command: process.execPath, args: [BUILT_CLI, 'mcp', ...args], env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', ...env }, stderr: 'pipe', ...(cwd ? { cwd } : {}) });
  transport.stderr?.on('data', (chunk: Buffer) => (said += chunk.toString()));
  const connected = new Client({ name: 'groundwork-test', version: '1.0.0' });
  await connected.connect(transport);
  return { client: connected, stderr: () => said };
}

async function call(name: string, args: Record<string, unknown>, on: Client = client) {
  const result = (await on.callTool({ name, arguments: args })) as CallToolResult;
  const [first] = result.content;
  return { isError: result.isError === true, text: first?.type === 'text' ? first.text : '', structured: (result.structuredContent ?? {}) as Record<string, unknown> };
}

const repoUrl = () => pathToFileURL(repo.dir).href;

beforeAll(async () => {
  repo = createGitRepo();
  repo.write('AGENTS.md', `# Rules\n\n${RULE}\n`);
  repo.write('src/AGENTS.md', `# Source rules\n\n${SRC_RULE}\n`);
  repo.write('.agents/skills/release/SKILL.md', `---\nname: release\ndescription: Cut a release.\n---\n${SKILL_BODY}\n`);
  repo.write('.agents/skills/release/scripts/release.sh', 'echo release\n');
  head = repo.commitAll('rules and a skill');
  // Started in the repository, as an agent starts it in the project it works on.
  const connected = await connect([], {}, repo.dir);
  client = connected.client;
  stderr = connected.stderr;
}, 30_000);
afterAll(async () => {
  await client?.close();
  repo?.remove();
});

describe('groundwork mcp over stdio', () => {
  it('initializes as groundwork and lists only the tools that work locally, each argument described', async () => {
    expect(client.getServerVersion()).toMatchObject({ name: 'groundwork' });
    const { tools } = await client.listTools();
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    // No mailbox or later turns (a service task's), no knowledge without a service.
    expect([...byName.keys()]).toEqual(['assemble_context', 'get_turn', 'check_freshness', 'check_before', 'read_skill', 'rules_for_paths']);
    // A repository on this machine is not the open world.
    expect(byName.get('assemble_context')?.annotations).toMatchObject({ readOnlyHint: false, openWorldHint: false });
    expect(byName.get('assemble_context')?.inputSchema.required).toEqual(['request']);
    expect(byName.get('assemble_context')?.inputSchema.properties?.['repo']).toMatchObject({ type: 'string', description: expect.stringContaining(`Omit it for ${repo.dir}`) });
    expect(byName.get('check_before')?.inputSchema.properties?.['action']).toMatchObject({ enum: ['push', 'report-ci'] });
    for (const tool of tools) {
      for (const [name, property] of Object.entries(tool.inputSchema.properties ?? {})) {
        expect((property as { description?: unknown }).description, `${tool.name}.${name}`).toEqual(expect.any(String));
      }
    }
    const instructions = client.getInstructions() ?? '';
    for (const absent of ['context_for_paths', 'remember', 'recall', 'post_followup']) expect(instructions).not.toContain(absent);
    expect(instructions).toContain('repo defaults to the repository this server runs in');
    // Its one log line went to stderr, where logs go.
    await expect.poll(stderr).toBe(`groundwork mcp: serving ${repo.dir} over stdio\n`);
  });

  it('reads the repository it runs in when no repo is given, and any other named by a plain path or file URL', async () => {
    const other = createGitRepo();
    try {
      other.write('AGENTS.md', '# Other rules\n\nUse tabs.\n');
      const otherHead = other.commitAll('other');
      const none = await call('assemble_context', { request: 'What are the rules here?' });
      expect(none.isError, none.text).toBe(false);
      expect(none.text).toContain(RULE);
      expect(none.structured).toMatchObject({ commit: head });
      // Earlier tasks and knowledge live on a service: not run here, so no notice the model cannot act on.
      expect(none.text).not.toMatch(/provider="(history|memory|task-facts)"/);
      for (const named of [other.dir, pathToFileURL(other.dir).href, relative(repo.dir, other.dir)]) {
        const result = await call('assemble_context', { repo: named, request: 'And there?' });
        expect(result.isError, `${named}: ${result.text}`).toBe(false);
        expect(result.text).toContain('Use tabs.');
        expect(result.structured).toMatchObject({ commit: otherHead });
      }
      // --repo names the default when the server is started elsewhere.
      const elsewhere = await connect(['--repo', other.dir], {}, tmpdir());
      try {
        expect(await call('assemble_context', { request: 'x' }, elsewhere.client)).toMatchObject({ isError: false, text: expect.stringContaining('Use tabs.') });
      } finally {
        await elsewhere.client.close();
      }
    } finally {
      other.remove();
    }
  });

  it('gives the host facts of assemble_context to the host provider, as the service does', async () => {
    const fact = { title: 'Node.js', body: 'node 22.12.0 on this laptop', freshness: 'snapshot', source: { uri: 'urn:groundwork-test:laptop' } };
    const result = await call('assemble_context', { repo: repoUrl(), request: 'Check the engines field.', facts: [fact] });
    expect(result.isError, result.text).toBe(false);
    expect(result.text).toContain('node 22.12.0 on this laptop');
    const providers = result.structured['providers'] as Array<{ name: string; outcome: string }>;
    expect(providers.find((provider) => provider.name === 'host')?.outcome).toBe('included');
  });

  it('assembles the context of a local repository for a working directory, and reads it back as text and as a vendor body', async () => {
    const result = await call('assemble_context', { repo: repoUrl(), cwd: 'src', request: 'Add a parser.' });
    expect(result.isError, result.text).toBe(false);
    expect(result.text).toContain(RULE);
    expect(result.text).toContain(SRC_RULE);
    expect(result.text).toContain(`pinned at ${head}`);
    expect(result.structured).toMatchObject({ status: 'ready', turn: 0, commit: head, digest: expect.stringMatching(/^sha256:/) });
    const taskId = String(result.structured['taskId']);
    expect(taskId).toMatch(/^[0-9a-f]{64}$/);

    const again = await call('get_turn', { taskId });
    expect(again.structured['digest']).toBe(result.structured['digest']);
    const body = await call('get_turn', { taskId, format: 'anthropic' });
    expect(JSON.parse(body.text)).toMatchObject({ messages: expect.any(Array) });
    const later = await call('get_turn', { taskId, turn: 1 });
    expect(later).toMatchObject({ isError: true, text: expect.stringContaining('not available locally') });
  });

  it('refuses bad arguments as tool errors naming the field', async () => {
    const cases: Array<[string, Record<string, unknown>, RegExp]> = [
      ['assemble_context', { repo: 'acme/widgets', request: 'x' }, /^Invalid arguments for tool assemble_context: repo: there is no .*acme\/widgets on this machine .*owner\/name is for a Groundwork service/],
      ['assemble_context', { repo: 'https://github.com/acme/widgets', request: 'x' }, /^Invalid arguments for tool assemble_context: repo: the local server reads repositories on this machine: give a path/],
      ['assemble_context', { repo: 7, request: 'x' }, /^Invalid arguments for tool assemble_context: repo: must be a path on this machine/],
      ['assemble_context', { repo: tmpdir(), request: 'x' }, /^repo: cannot read /],
      ['assemble_context', { repo: repoUrl(), request: '   ' }, /request/],
      ['assemble_context', { repo: repoUrl(), request: 'x', skills: ['Bad Name'] }, /skills/],
      ['assemble_context', { repo: repoUrl(), request: 'x', agent: 'nobody' }, /^agent: /],
      ['assemble_context', { repo: repoUrl(), request: 'x', cwd: '../etc' }, /cwd/],
      ['assemble_context', { repo: pathToFileURL('/nonexistent-groundwork').href, request: 'x' }, /^repo: cannot read/],
      ['check_before', { taskId: 'f'.repeat(64), action: 'push' }, /no task f{64}/],
      ['get_turn', { taskId: 'nope' }, /taskId/],
      ['get_turn', { taskId: 'f'.repeat(64) }, /no task f{64} in this groundwork mcp process/],
      ['read_skill', { taskId: 'f'.repeat(64), name: 'release' }, /no task/],
    ];
    for (const [tool, args, message] of cases) {
      const result = await call(tool, args);
      expect(result.isError, `${tool} ${JSON.stringify(args)}: ${result.text}`).toBe(true);
      expect(result.text).toMatch(message);
    }
  });

  it('reads a skill whole with its bundled files, and says what changed since the task was pinned', async () => {
    const { structured } = await call('assemble_context', { repo: repoUrl(), request: 'Cut a release.' });
    const taskId = String(structured['taskId']);
    const skill = await call('read_skill', { taskId, name: 'release' });
    expect(skill.isError, skill.text).toBe(false);
    expect(skill.text).toContain(SKILL_BODY);
    expect(skill.structured).toMatchObject({ name: 'release', path: '.agents/skills/release/SKILL.md', commit: head });
    expect(JSON.stringify(skill.structured['files'])).toContain('scripts/release.sh');
    expect(await call('read_skill', { taskId, name: 'deploy' })).toMatchObject({ isError: true, text: expect.stringContaining('deploy') });

    const fresh = await call('check_freshness', { taskId });
    expect(fresh.structured).toMatchObject({ moved: false, current: head });
    repo.write('AGENTS.md', '# Rules\n\nRun `npm run check` before committing.\n');
    const moved = repo.commitAll('new rule');
    const stale = await call('check_freshness', { taskId });
    expect(stale.structured).toMatchObject({ moved: true, current: moved });
    expect(stale.structured['sources']).toEqual(expect.arrayContaining([expect.objectContaining({ path: 'AGENTS.md', status: 'changed' })]));
    expect(stale.text).toContain('AGENTS.md');
    expect(stale.structured['ruleSet']).toEqual({ status: 'unchanged', changes: [] });
    // A rule file that now applies is a change the sources alone would not show.
    repo.write('AGENTS.override.md', '# Override\n\nShip only from main.\n');
    repo.commitAll('override');
    const overridden = await call('check_freshness', { taskId });
    expect(overridden.text).toContain('- AGENTS.override.md added: it replaces AGENTS.md for .\n');
    expect(overridden.structured['ruleSet']).toMatchObject({ status: 'changed', changes: [expect.objectContaining({ change: 'added', path: 'AGENTS.override.md', from: 'AGENTS.md' })] });
    // The repository is shared with the next tests: as it was, with AGENTS.md the root's rules.
    repo.git('rm', '--quiet', 'AGENTS.override.md');
    repo.commitAll('no override');
  });

  it('answers check_freshness as the task client sees the rule set: what it loads itself, what Groundwork must now give it (issue 51)', async () => {
    const mono = createGitRepo();
    try {
      mono.write('AGENTS.md', 'Run npm test.\n');
      mono.write('packages/api/AGENTS.md', 'Validate with zod.\n');
      mono.write('packages/api/src/index.ts', 'export {};\n');
      mono.commitAll('one');
      const forClaude = await call('assemble_context', { repo: mono.dir, request: 'Change the api.', cwd: 'packages/api', client: 'claude-code' });
      const forCodex = await call('assemble_context', { repo: mono.dir, request: 'Change the api.', cwd: 'packages/api', client: 'codex' });
      expect(forClaude.isError, forClaude.text).toBe(false);
      expect(forCodex.isError, forCodex.text).toBe(false);
      // A CLAUDE.md beside the root AGENTS.md: Claude Code reads it instead, so both AGENTS.md files are now Groundwork's to give.
      mono.write('CLAUDE.md', 'Claude: keep commits small.\n');
      mono.commitAll('claude');
      const claude = await call('check_freshness', { taskId: String(forClaude.structured['taskId']) });
      expect(claude.isError, claude.text).toBe(false);
      expect(claude.structured['ruleSet']).toMatchObject({ status: 'changed', client: 'claude-code' });
      const changes = (claude.structured['ruleSet'] as { changes: Array<{ path: string; verdict?: string; currentVerdict: string }> }).changes;
      expect(changes.map((change) => [change.path, change.verdict ?? null, change.currentVerdict])).toEqual([
        ['AGENTS.md', 'loaded-by-client', 'applied'],
        ['CLAUDE.md', null, 'loaded-by-client'],
        ['packages/api/AGENTS.md', 'loaded-by-client', 'applied'],
      ]);
      expect(claude.text).toContain('- AGENTS.md is now given by Groundwork: it applies to packages/api; Claude Code reads CLAUDE.md instead\n');
      // Codex never reads CLAUDE.md: for it the new file is only shadowed, and what it loads is as it was.
      const codex = await call('check_freshness', { taskId: String(forCodex.structured['taskId']) });
      expect(codex.structured['ruleSet']).toMatchObject({ status: 'changed', client: 'codex' });
      expect(codex.text).toContain('- CLAUDE.md added: shadowed by AGENTS.md in ., which the client loads itself instead\n');
      expect(codex.text).not.toContain('now given by Groundwork');
    } finally {
      mono.remove();
    }
  });

  it('answers rules_for_paths with the matrix at the task commit: who sees which file, and the lints, for this machine\'s repository', async () => {
    const mixed = createGitRepo();
    try {
      mixed.write('AGENTS.md', '# Rules\n\nKeep changes small.\n');
      mixed.write('packages/api/AGENTS.md', '# api\n\nHandlers validate with zod.\n');
      mixed.write('packages/api/CLAUDE.md', '# api, for Claude\n\nRun the api tests first.\n');
      mixed.write('packages/api/src/handler.ts', 'export const handler = 1;\n');
      mixed.write('.cursor/rules/api.mdc', '---\nglobs: [packages/api/**\nalwaysApply: false\n---\nUse the api client.\n');
      const commit = mixed.commitAll('mixed rules');
      const { structured } = await call('assemble_context', { repo: mixed.dir, request: 'Change the handler.' });
      const taskId = String(structured['taskId']);
      const result = await call('rules_for_paths', { taskId, paths: ['packages/api/src/handler.ts'], clients: ['codex', 'claude-code', 'cursor'] });
      expect(result.isError, result.text).toBe(false);
      expect(result.text.split('\n')[0]).toBe('3 rule files apply to this change; Codex and Cursor will not see `packages/api/CLAUDE.md`; 1 lint error');
      expect(result.text).toContain('| File | Blob | Groundwork | Codex | Claude Code | Cursor |');
      expect(result.text).toMatch(/\| `packages\/api\/CLAUDE\.md` \| `[0-9a-f]{12}` \| shadowed \| \*\*not seen\*\* \| lazy \| \*\*not seen\*\* \|/);
      expect(result.structured).toMatchObject({ taskId, commit, cwd: '', clients: ['codex', 'claude-code', 'cursor'] });
      // The broken Cursor rule, and the api's two files that Codex and Claude Code read apart.
      expect(result.structured['lints']).toEqual([
        expect.objectContaining({ code: 'frontmatter-unreadable', severity: 'error', path: '.cursor/rules/api.mdc', clients: ['cursor'] }),
        expect.objectContaining({ code: 'directory-disagreement', severity: 'warning', path: 'packages/api/AGENTS.md', related: ['packages/api/CLAUDE.md'] }),
      ]);
      const bad = await call('rules_for_paths', { taskId, paths: ['src'], clients: ['copilot@1.2'] });
      expect(bad).toMatchObject({ isError: true, text: expect.stringMatching(/clients\[0\]: "copilot@1\.2": a report has one column per client/) });
      expect(await call('rules_for_paths', { taskId: 'f'.repeat(64), paths: ['src'] })).toMatchObject({ isError: true, text: expect.stringMatching(/no task f{64}/) });
      const untrusted = await call('assemble_context', { repo: mixed.dir, request: 'x', trusted: false });
      expect(await call('rules_for_paths', { taskId: String(untrusted.structured['taskId']), paths: ['src'] })).toMatchObject({ isError: true, text: expect.stringContaining('untrusted') });
    } finally {
      mixed.remove();
    }
  });

  it('offers the task turns and the files a task read as resources, and nothing it did not read', async () => {
    const { structured } = await call('assemble_context', { repo: repoUrl(), request: 'Explain.' });
    const taskId = String(structured['taskId']);
    const { resources } = await client.listResources();
    expect(resources.map((resource) => resource.uri)).toContain(`groundwork://tasks/${taskId}/turns/0`);
    const turn = await client.readResource({ uri: `groundwork://tasks/${taskId}/turns/0` });
    expect(JSON.parse(String((turn.contents[0] as { text: string }).text))).toMatchObject({ digest: structured['digest'] });
    const source = await client.readResource({ uri: `groundwork://tasks/${taskId}/sources/AGENTS.md` });
    expect(source.contents[0]).toMatchObject({ text: expect.stringContaining('# Rules'), _meta: { path: 'AGENTS.md', revision: structured['commit'] } });
    await expect(client.readResource({ uri: `groundwork://tasks/${taskId}/sources/package.json` })).rejects.toThrow(/read no such rules or skill file/);
  });

  it('refuses the tools it does not list as unknown, a protocol error', async () => {
    for (const [tool, args] of [
      ['post_followup', { taskId: 'f'.repeat(64), from: 'user', text: 'Also update the docs.' }],
      ['recall', { repo: 'acme/widgets' }],
      ['context_for_paths', { taskId: 'f'.repeat(64), paths: ['src'] }],
    ] as const) {
      await expect(client.callTool({ name: tool, arguments: args }), tool).rejects.toThrow(new RegExp(`Unknown tool: ${tool}; this server's tools are assemble_context, get_turn, check_freshness, check_before, read_skill, rules_for_paths`));
    }
  });

  it('checks before a push as groundwork check does: go while the upstream is where the work began, stop once it moved', async () => {
    const work = createGitRepo({ branch: 'main' });
    try {
      work.write('AGENTS.md', '# Rules\n');
      const base = work.commitAll('base');
      // main's upstream is the local branch trunk: git records it as remote ".".
      work.git('branch', 'trunk');
      work.git('config', 'branch.main.remote', '.');
      work.git('config', 'branch.main.merge', 'refs/heads/trunk');
      const { structured } = await call('assemble_context', { repo: work.dir, request: 'Change the rules.' });
      const taskId = String(structured['taskId']);
      const go = await call('check_before', { taskId, action: 'push' });
      expect(go.isError, go.text).toBe(false);
      expect(go.structured).toMatchObject({ taskId, action: 'push', verdict: 'go', subject: { commit: base } });
      expect(go.text).toMatch(/^push on [0-9a-f]{7} at .*: go/);

      work.git('checkout', '--quiet', 'trunk');
      work.write('README.md', 'someone else\n');
      work.commitAll('moved under the task');
      work.git('checkout', '--quiet', 'main');
      const stop = await call('check_before', { taskId, action: 'push' });
      expect(stop.structured).toMatchObject({ verdict: 'stop' });
      expect(stop.text).toMatch(/^push on [0-9a-f]{7} at .*: stop/);

      // report-ci needs the repository on GitHub: this one has no GitHub remote, so it cannot say.
      const ci = await call('check_before', { taskId, action: 'report-ci' });
      expect(ci.structured).toMatchObject({ verdict: 'unknown' });
      expect(ci.text).toContain("the server reads the repository's GitHub remote");
      expect(await call('check_before', { taskId, action: 'merge' })).toMatchObject({ isError: true, text: expect.stringMatching(/^action: merge belongs to a task on a Groundwork service; a local task checks push and report-ci/) });
      expect(await call('check_before', { taskId, action: 'push', commit: 'a'.repeat(40) })).toMatchObject({ isError: true, text: expect.stringMatching(/^commit: a{40} is not a commit of /) });
    } finally {
      work.remove();
    }
  });

  it('offers the knowledge tools with --service, and says so when that service does not answer', async () => {
    const local = await connect(['--service', 'http://127.0.0.1:9'], { GROUNDWORK_TOKEN: 'test-token' }, repo.dir);
    try {
      const { tools } = await local.client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(['assemble_context', 'get_turn', 'check_freshness', 'check_before', 'read_skill', 'rules_for_paths', 'remember', 'recall', 'retire_knowledge']);
      expect(local.client.getInstructions()).toContain('recall lists it');
      const result = await call('recall', { repo: 'acme/widgets' }, local.client);
      expect(result).toMatchObject({ isError: true, text: expect.stringMatching(/^the service at http:\/\/127\.0\.0\.1:9 did not answer/) });
    } finally {
      await local.client.close();
    }
  });

  it('writes nothing but JSON-RPC frames on stdout, and its usage errors to stderr with exit 2', async () => {
    const lines = await rawSession([
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'assemble_context', arguments: { repo: repoUrl(), request: 'Explain.' } } },
    ], 2);
    expect(lines.length).toBeGreaterThanOrEqual(2);
    for (const line of lines) expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0' });
    const usage = await runBuilt(['mcp', '--service', 'http://127.0.0.1:9'], '', {});
    expect(usage).toMatchObject({ code: 2, stdout: '' });
    expect(usage.stderr).toContain('--service needs a token: set GROUNDWORK_TOKEN');
  });
});

function runBuilt(argv: string[], input: string, env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [BUILT_CLI, ...argv], { env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', ...env }, timeout: 30_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
    child.stdin?.end(input);
  });
}

/** Sends raw frames to `groundwork mcp` and collects stdout lines until `answers` responses came back. */
function rawSession(frames: object[], answers: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BUILT_CLI, 'mcp'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`no ${answers} answers within 30 s: ${out}`));
    }, 30_000);
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const lines = out.split('\n').filter((line) => line !== '');
      if (lines.filter((line) => line.includes('"id"')).length >= answers) {
        clearTimeout(timer);
        child.stdin.end();
        child.once('exit', () => resolve(out.split('\n').filter((line) => line !== '')));
      }
    });
    for (const frame of frames) child.stdin.write(`${JSON.stringify(frame)}\n`);
  });
}

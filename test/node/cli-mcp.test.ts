/**
 * `groundwork mcp` as an agent starts it: the built `dist/cli.js` spawned by the official SDK's
 * `StdioClientTransport`, on a real git repository; every tool with good and bad input, the
 * resources, and stdout carrying protocol frames only. And `groundwork hook session-start` as
 * Claude Code runs it: the hook input on stdin, the hook output on stdout, exit 0 even on error.
 */
import { execFile, spawn } from 'node:child_process';
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

async function connect(args: string[] = [], env: Record<string, string> = {}): Promise<{ client: Client; stderr: () => string }> {
  let said = '';
  const transport = new StdioClientTransport({ command: process.execPath, args: [BUILT_CLI, 'mcp', ...args], env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', ...env }, stderr: 'pipe' });
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
  const connected = await connect();
  client = connected.client;
  stderr = connected.stderr;
}, 30_000);
afterAll(async () => {
  await client?.close();
  repo?.remove();
});

describe('groundwork mcp over stdio', () => {
  it('initializes as groundwork and lists the tools, local annotations and no context_for_paths', async () => {
    expect(client.getServerVersion()).toMatchObject({ name: 'groundwork' });
    const { tools } = await client.listTools();
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    expect([...byName.keys()].sort()).toEqual(['assemble_context', 'check_before', 'check_freshness', 'get_turn', 'post_followup', 'read_skill', 'recall', 'remember', 'retire_knowledge']);
    // A repository on this machine is not the open world.
    expect(byName.get('assemble_context')?.annotations).toMatchObject({ readOnlyHint: false, openWorldHint: false });
    expect(client.getInstructions()).not.toContain('context_for_paths');
    // Its one log line went to stderr, where logs go.
    await expect.poll(stderr).toBe('groundwork mcp: serving over stdio\n');
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
      ['assemble_context', { repo: 'acme/widgets', request: 'x' }, /^repo: the local server reads repositories on this machine/],
      ['assemble_context', { repo: repoUrl(), request: '   ' }, /request/],
      ['assemble_context', { repo: repoUrl(), request: 'x', skills: ['Bad Name'] }, /skills/],
      ['assemble_context', { repo: repoUrl(), request: 'x', agent: 'nobody' }, /^agent: /],
      ['assemble_context', { repo: repoUrl(), request: 'x', cwd: '../etc' }, /cwd/],
      ['assemble_context', { repo: pathToFileURL('/nonexistent-groundwork').href, request: 'x' }, /^repo: cannot read/],
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

  it('answers the knowledge tools, the mailbox and checks as not available locally without a service', async () => {
    const { structured } = await call('assemble_context', { repo: repoUrl(), request: 'Explain.' });
    const taskId = String(structured['taskId']);
    for (const [tool, args] of [
      ['recall', { repo: 'acme/widgets' }],
      ['remember', { repo: 'acme/widgets', statement: 'Builds use make.', source: { uri: 'https://example.com/build' } }],
      ['retire_knowledge', { id: 'k1', reason: 'gone' }],
      ['post_followup', { taskId, from: 'user', text: 'Also update the docs.' }],
      ['check_before', { taskId, action: 'push' }],
    ] as const) {
      const result = await call(tool, args);
      expect(result, tool).toMatchObject({ isError: true, text: expect.stringContaining('not available locally') });
    }
  });

  it('goes to --service for knowledge, and says so when that service does not answer', async () => {
    const local = await connect(['--service', 'http://127.0.0.1:9'], { GROUNDWORK_TOKEN: 'test-token' });
    try {
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

describe('groundwork hook session-start', () => {
  it('prints the context of the repository at the hook’s cwd as Claude Code’s SessionStart hook output', async () => {
    const run = await runBuilt(['hook', 'session-start'], JSON.stringify({ session_id: 's1', transcript_path: '/tmp/t.jsonl', cwd: `${repo.dir}/src`, hook_event_name: 'SessionStart', source: 'startup' }));
    expect(run.code).toBe(0);
    const output = JSON.parse(run.stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
    expect(output.hookSpecificOutput.hookEventName).toBe('SessionStart');
    expect(output.hookSpecificOutput.additionalContext).toContain(SRC_RULE);
    expect(output.hookSpecificOutput.additionalContext).toMatch(/Groundwork context of .* at [0-9a-f]{40}, digest sha256:/);
  });

  it('prints its usage for --help after the hook name, as before it', async () => {
    for (const argv of [['hook', '--help'], ['hook', 'session-start', '--help']]) {
      const run = await runBuilt(argv, '');
      expect(run.code, argv.join(' ')).toBe(0);
      expect(run.stdout).toMatch(/^Usage: groundwork hook session-start/);
    }
  });

  it('never fails the session: bad input, no repository, an unknown hook or a missed deadline are a one-line notice and exit 0', async () => {
    const cases: Array<[string[], string, RegExp]> = [
      [['hook', 'session-start'], 'not json', /not JSON/],
      [['hook', 'session-start'], '{}', /no usable cwd/],
      [['hook', 'session-start'], JSON.stringify({ cwd: '/nonexistent-groundwork' }), /cannot read \/nonexistent-groundwork/],
      [['hook', 'session-end'], '{}', /unknown hook "session-end"/],
      [['hook', 'session-start', '--deadline-ms', '1'], JSON.stringify({ cwd: repo.dir }), /took longer than 1 ms/],
      [['hook', 'session-start', '--agent', 'nobody'], JSON.stringify({ cwd: repo.dir }), /--agent/],
    ];
    for (const [argv, input, notice] of cases) {
      const run = await runBuilt(argv, input);
      expect(run.code, `${argv.join(' ')} ${input}`).toBe(0);
      const output = JSON.parse(run.stdout) as { systemMessage: string };
      expect(Object.keys(output)).toEqual(['systemMessage']);
      expect(output.systemMessage).not.toContain('\n');
      expect(output.systemMessage).toMatch(/^groundwork: /);
      expect(output.systemMessage).toMatch(notice);
    }
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

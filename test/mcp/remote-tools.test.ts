/**
 * The remote MCP server through the real Worker, its Task objects and knowledge scopes, driven by
 * the official SDK client over Streamable HTTP: every tool with good and bad input, and what
 * each call stored, read back through the REST API.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { AssembledTurnSchema } from '../../src/context/turn-schema.ts';
import { TaskDescriptionSchema } from '../../src/tasks/task-results.ts';
import { api } from '../support/api.ts';
import { callTool, connectMcp, type McpConnection } from '../support/mcp-client.ts';

const gitUrl = (name: string) => `http://127.0.0.1:${inject('gitHttpPort')}/${name}.git`;
const fixtures = () => inject('gitHttpFixtures');

let acme: McpConnection;
beforeAll(async () => {
  acme = await connectMcp();
});
afterAll(async () => {
  await acme.close();
});

async function assemble(args: Record<string, unknown>) {
  const result = await callTool(acme.client, 'assemble_context', { request: 'Explain the build.', ...args });
  expect(result.isError, result.text).toBeFalsy();
  return { ...result, taskId: String(result.structured['taskId']) };
}

describe('the remote MCP server', () => {
  it('initializes as groundwork, with tools and resources, and tells the model when to call what', () => {
    expect(acme.client.getServerVersion()).toMatchObject({ name: 'groundwork' });
    expect(acme.client.getServerCapabilities()).toMatchObject({ tools: {}, resources: {} });
    expect(acme.client.getInstructions()).toContain('assemble_context');
  });

  it('lists its tools with input schemas from the REST schemas and deliberate annotations', async () => {
    const { tools } = await acme.client.listTools();
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    expect([...byName.keys()].sort()).toEqual(['assemble_context', 'check_before', 'check_freshness', 'context_for_paths', 'get_turn', 'post_followup', 'read_skill', 'recall', 'remember', 'retire_knowledge', 'rules_for_paths']);
    expect(byName.get('assemble_context')?.inputSchema.required).toEqual(expect.arrayContaining(['repo', 'request']));
    expect(byName.get('assemble_context')?.annotations).toEqual({ readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true });
    expect(byName.get('get_turn')?.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: false });
    expect(byName.get('check_freshness')?.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: true });
    expect(byName.get('retire_knowledge')?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(byName.get('rules_for_paths')?.annotations).toEqual({ readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true });
    expect(byName.get('rules_for_paths')?.inputSchema.required).toEqual(['taskId', 'paths']);
    // A check records its answer on the task: not read-only, and each call is a new record.
    expect(byName.get('check_before')?.annotations).toEqual({ readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true });
    expect(byName.get('check_before')?.inputSchema.required).toEqual(expect.arrayContaining(['taskId', 'action']));
    expect(Object.keys(byName.get('assemble_context')?.inputSchema.properties ?? {})).toEqual(expect.arrayContaining(['facts', 'tools', 'agent', 'skills']));
    for (const tool of tools) expect(tool.description?.length ?? 0, tool.name).toBeGreaterThan(40);
  });

  it('assembles a task: the context as text, its id, commit, digest and outcomes as JSON, and a task REST reads the same', async () => {
    const result = await assemble({ repo: gitUrl('sample') });
    expect(result.text).toContain('Run `npm test` before committing.');
    expect(result.text).toContain(`pinned at ${fixtures().sample.head}`);
    expect(result.structured).toMatchObject({ status: 'ready', turn: 0, commit: fixtures().sample.head, digest: expect.stringMatching(/^sha256:/) });
    expect(result.structured['providers']).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'rules', outcome: 'included' })]));
    const task = TaskDescriptionSchema.parse((await api('GET', `/tasks/${result.taskId}`)).json);
    expect(task).toMatchObject({ status: 'ready', request: { origin: 'mcp', tenant: 'api:acme', repo: gitUrl('sample') } });
    expect(task.turns[0]?.digest).toBe(result.structured['digest']);
  });

  it('refuses bad arguments as tool errors naming the field, and creates no task', async () => {
    const before = (await api('GET', '/tasks?limit=100')).json['tasks'] as unknown[];
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ repo: 'not a repository', request: 'x' }, /repo/],
      [{ repo: gitUrl('sample'), request: '   ' }, /request/],
      [{ repo: gitUrl('sample'), request: 'x', agent: 'nobody' }, /agent/],
      [{ repo: gitUrl('sample'), request: 'x', commit: 'a'.repeat(40) }, /commit/],
      [{ repo: gitUrl('sample'), request: 'x', skills: ['Bad Name'] }, /skills\[0\]/],
      [{ repo: gitUrl('sample'), request: 'x', providers: {} }, /providers/],
      [{ repo: 'http://elsewhere.example/x.git', request: 'x' }, /repo: elsewhere\.example is not an allowed git host/],
      [{ repo: gitUrl('sample'), request: 'x', tools: ['rm-rf'] }, /tools\[0\]: agent "entry" has no tool "rm-rf"/],
      [{ repo: gitUrl('sample'), request: 'x', facts: [{ title: 'Node.js', body: 'node 22', freshness: 'always', source: { uri: 'ci:7' } }] }, /facts/],
      [{ repo: gitUrl('sample'), request: 'x', facts: Array.from({ length: 5 }, () => ({ title: 'x', body: 'x'.repeat(4_000), freshness: 'snapshot', source: { uri: 'ci:7' } })) }, /facts: bodies total 20000 characters, over the 16000 a task may carry/],
    ];
    for (const [args, field] of cases) {
      const result = await callTool(acme.client, 'assemble_context', args);
      expect(result.isError, JSON.stringify(args)).toBe(true);
      expect(result.text).toMatch(field);
    }
    const after = (await api('GET', '/tasks?limit=100')).json['tasks'] as unknown[];
    expect(after.length).toBe(before.length);
  });

  it('reads a turn back, as text or as a vendor request body, and refuses a turn not begun or a bad number', async () => {
    const { taskId, structured } = await assemble({ repo: gitUrl('sample') });
    const turn = await callTool(acme.client, 'get_turn', { taskId });
    expect(turn.structured['digest']).toBe(structured['digest']);
    const anthropic = await callTool(acme.client, 'get_turn', { taskId, turn: 0, format: 'anthropic' });
    expect(anthropic.structured['body']).toEqual((await api('GET', `/tasks/${taskId}/turns/0?format=anthropic`)).json);
    expect(JSON.parse(anthropic.text)).toEqual(anthropic.structured['body']);
    const later = await callTool(acme.client, 'get_turn', { taskId, turn: 3 });
    expect(later.isError).toBe(true);
    expect(later.text).toContain('turn 3');
    for (const [args, field] of [
      [{ taskId, turn: -1 }, /turn/],
      [{ taskId, format: 'cohere' }, /format/],
      [{ taskId: 'abc' }, /taskId/],
    ] as const) {
      const bad = await callTool(acme.client, 'get_turn', args);
      expect(bad.isError).toBe(true);
      expect(bad.text).toMatch(field);
    }
  });

  it('gives the host facts to the model as the host provider’s evidence, as POST /tasks does', async () => {
    const fact = { title: 'Node.js', body: 'node 22.12.0 on the devbox', freshness: 'snapshot', source: { uri: 'https://ci.example.com/runners/7' } };
    const result = await assemble({ repo: gitUrl('sample'), facts: [fact] });
    expect(result.text).toMatch(/provider="host" category="system" title="Node.js" source="https:\/\/ci.example.com\/runners\/7" freshness="snapshot">\nnode 22.12.0 on the devbox\n/);
    expect(result.structured['providers']).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'host', outcome: 'included' })]));
    const task = TaskDescriptionSchema.parse((await api('GET', `/tasks/${result.taskId}`)).json);
    expect(task.request.facts).toEqual([fact]);
  });

  it('checks before an action with the REST service: the verdict in words and as the record the task keeps', async () => {
    const { taskId } = await assemble({ repo: gitUrl('sample'), ref: 'main' });
    const head = fixtures().sample.head;
    const push = await callTool(acme.client, 'check_before', { taskId, action: 'push' });
    expect(push.isError, push.text).toBeFalsy();
    expect(push.text).toMatch(new RegExp(`^push on ${head.slice(0, 7)} at \\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2} UTC: go, main is still at ${head.slice(0, 7)} on the remote`));
    expect(push.structured).toMatchObject({ taskId, id: 1, action: 'push', verdict: 'go', subject: { ref: 'main', commit: head }, details: { branch: 'main', moved: false } });
    const knowledge = await callTool(acme.client, 'check_before', { taskId, action: 'apply-knowledge' });
    expect(knowledge.structured).toMatchObject({ id: 2, action: 'apply-knowledge', verdict: 'unknown' });
    const task = TaskDescriptionSchema.parse((await api('GET', `/tasks/${taskId}`)).json);
    expect(task.checks.recent.map((entry) => [entry.id, entry.action, entry.verdict])).toEqual([[2, 'apply-knowledge', 'unknown'], [1, 'push', 'go']]);

    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ taskId, action: 'deploy' }, /action/],
      [{ taskId, action: 'push', commit: 'main' }, /commit/],
      [{ taskId, action: 'push', branch: 'a..b' }, /branch/],
      [{ taskId, action: 'apply-knowledge', commit: head }, /^commit: does not apply to apply-knowledge$/],
      [{ taskId, action: 'report-ci', stopIfBaseMoved: true }, /^stopIfBaseMoved: does not apply to report-ci$/],
      [{ taskId: 'f'.repeat(64), action: 'push' }, /no task f{64} for this token/],
    ];
    for (const [args, field] of cases) {
      const bad = await callTool(acme.client, 'check_before', args);
      expect(bad.isError, JSON.stringify(args)).toBe(true);
      expect(bad.text).toMatch(field);
    }
    // Refused checks record nothing.
    expect(TaskDescriptionSchema.parse((await api('GET', `/tasks/${taskId}`)).json).checks.recent).toHaveLength(2);
  });

  it('gives the rules new paths bring through the focus service: recorded on the task, added by its next turn, nothing twice', async () => {
    const { deep } = fixtures();
    const { taskId, text } = await assemble({ repo: gitUrl('deep') });
    expect(text).not.toContain('Deep rules: mind the long path.');
    const moved = await callTool(acme.client, 'context_for_paths', { taskId, paths: [`${deep.cwd}/main.ts`] });
    expect(moved.isError, moved.text).toBeFalsy();
    expect(moved.text).toContain('Deep rules: mind the long path.');
    expect(moved.structured).toMatchObject({ taskId, turn: 1, commit: deep.head, focus: { paths: { recorded: [`${deep.cwd}/main.ts`], duplicates: [] }, nextTurn: 1 } });
    const task = TaskDescriptionSchema.parse((await api('GET', `/tasks/${taskId}`)).json);
    expect(task.turns.map((turn) => turn.turn)).toEqual([0, 1]);

    const again = await callTool(acme.client, 'context_for_paths', { taskId, paths: [`${deep.cwd}/main.ts`] });
    expect(again.isError, again.text).toBeFalsy();
    expect(again.text).toMatch(/^Nothing new: /);
    expect(TaskDescriptionSchema.parse((await api('GET', `/tasks/${taskId}`)).json).turns).toHaveLength(2);

    for (const [args, field] of [
      [{ taskId }, /name at least one path, skill or rule/],
      [{ taskId, paths: ['../etc'] }, /paths/],
      [{ taskId: 'f'.repeat(64), paths: ['src'] }, /no task f{64} for this token/],
    ] as const) {
      const bad = await callTool(acme.client, 'context_for_paths', args);
      expect(bad.isError, JSON.stringify(args)).toBe(true);
      expect(bad.text).toMatch(field);
    }
  });

  it('checks freshness: the ref has not moved, every source unchanged', async () => {
    const { taskId } = await assemble({ repo: gitUrl('sample'), ref: 'main' });
    const result = await callTool(acme.client, 'check_freshness', { taskId });
    expect(result.isError).toBeFalsy();
    expect(result.text).toContain(`main is still at ${fixtures().sample.head.slice(0, 7)}`);
    expect(result.structured).toMatchObject({ taskId, moved: false, current: fixtures().sample.head });
    expect(result.structured['sources']).toEqual(expect.arrayContaining([expect.objectContaining({ path: 'AGENTS.md', status: 'unchanged' })]));
  });

  it('reads a skill of the task whole, with its bundled files; an unknown name or an untrusted task is a tool error', async () => {
    const { taskId } = await assemble({ repo: gitUrl('opencode') });
    const skill = await callTool(acme.client, 'read_skill', { taskId, name: 'release' });
    expect(skill.isError, skill.text).toBeFalsy();
    expect(skill.text).toContain('Run the release script, then tag.');
    expect(skill.structured).toMatchObject({ name: 'release', path: '.opencode/skills/release/SKILL.md', commit: fixtures().opencode.head, truncated: false });
    const unknown = await callTool(acme.client, 'read_skill', { taskId, name: 'deploy' });
    expect(unknown.isError).toBe(true);
    expect(unknown.text).toContain('release');
    const untrusted = await assemble({ repo: gitUrl('opencode'), trusted: false });
    const refused = await callTool(acme.client, 'read_skill', { taskId: untrusted.taskId, name: 'release' });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain('untrusted');
    const bad = await callTool(acme.client, 'read_skill', { taskId, name: '--' });
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(/name/);
  });

  it('answers the rules matrix for paths at the task commit: files by the clients asked, with blobs and lints, recording nothing', async () => {
    const { taskId } = await assemble({ repo: gitUrl('sample') });
    const result = await callTool(acme.client, 'rules_for_paths', { taskId, paths: ['src/index.ts'], clients: ['claude-code', 'codex'] });
    expect(result.isError, result.text).toBeFalsy();
    expect(result.text.split('\n')[0]).toMatch(/^\d+ rule files? appl(?:y|ies) to this change; /);
    expect(result.text).toContain('| File | Blob | Groundwork | Codex | Claude Code |');
    expect(result.structured).toMatchObject({ taskId, commit: fixtures().sample.head, cwd: '', paths: ['src/index.ts'], clients: ['codex', 'claude-code'], filesLeftOut: 0, lintsLeftOut: 0 });
    const files = result.structured['files'] as Array<{ path: string; blob?: string; verdict: string; clients?: Array<{ client: string; cell: string }> }>;
    const root = files.find((file) => file.path === 'AGENTS.md');
    expect(root).toMatchObject({ verdict: 'applied', blob: expect.stringMatching(/^[0-9a-f]{40}$/) });
    // Groundwork's own column and the clients asked, in the matrix order; no other.
    expect(root?.clients?.map((cell) => cell.client)).toEqual(['none', 'codex', 'claude-code']);
    expect(root?.clients?.find((cell) => cell.client === 'codex')?.cell).toBe('loaded');
    expect(result.structured['lints']).toEqual([]);
    // A read: the task has still one turn and no focus.
    expect(TaskDescriptionSchema.parse((await api('GET', `/tasks/${taskId}`)).json).turns).toHaveLength(1);
    const all = await callTool(acme.client, 'rules_for_paths', { taskId, paths: ['src'] });
    expect(all.structured['clients']).toEqual(['codex', 'claude-code', 'gemini-cli', 'copilot', 'cursor']);
  });

  it('answers rules_for_paths for the clients the task rules settings name when the call names none', async () => {
    // The task layer here; a repository's .groundwork.yml (groundwork rules' test) and PROVIDER_CONFIG are the same field.
    const created = await api('POST', '/tasks', { body: { repo: gitUrl('sample'), request: 'Explain the build.', providers: { rules: { clients: ['cursor', 'claude-code'] } } } });
    expect(created.status, JSON.stringify(created.json)).toBe(202);
    const taskId = String(created.json['id']);
    expect(TaskDescriptionSchema.parse((await api('GET', `/tasks/${taskId}?wait=30`)).json).status).toBe('ready');
    const named = await callTool(acme.client, 'rules_for_paths', { taskId, paths: ['src/index.ts'] });
    expect(named.isError, named.text).toBeFalsy();
    expect(named.structured['clients']).toEqual(['claude-code', 'cursor']);
    expect(named.text).toContain('| File | Blob | Groundwork | Claude Code | Cursor |');
    // The caller's own list wins.
    const asked = await callTool(acme.client, 'rules_for_paths', { taskId, paths: ['src/index.ts'], clients: ['codex'] });
    expect(asked.structured['clients']).toEqual(['codex']);
    // A name no profile has is refused with the field, as any setting is.
    const bad = await api('POST', '/tasks', { body: { repo: gitUrl('sample'), request: 'x', providers: { rules: { clients: ['vim'] } } } });
    expect(bad.status).toBe(400);
    expect(bad.json['error']).toMatchObject({ code: 'bad_request', message: 'providers.rules.clients[0]: "vim": must be one of codex, claude-code, gemini-cli, copilot, cursor' });
  });

  it('refuses bad rules_for_paths arguments naming the field, and an untrusted task, as tool errors', async () => {
    const { taskId } = await assemble({ repo: gitUrl('sample') });
    for (const [args, field] of [
      [{ taskId, paths: [] }, /paths: name at least one path/],
      [{ taskId }, /paths/],
      [{ taskId, paths: ['../etc'] }, /paths\[0\]/],
      [{ taskId, paths: ['src'], clients: ['codex', 'vim'] }, /clients\[1\]: "vim": must be one of codex, claude-code, gemini-cli, copilot, cursor/],
      [{ taskId, paths: ['src'], clients: ['copilot:vscode'] }, /clients\[0\]: "copilot:vscode": a report has one column per client/],
      [{ taskId, paths: ['src'], clients: ['none'] }, /clients\[0\]: "none"/],
      [{ taskId, paths: ['src'], cwd: 'src' }, /cwd/],
      [{ taskId: 'f'.repeat(64), paths: ['src'] }, /no task f{64} for this token/],
    ] as const) {
      const bad = await callTool(acme.client, 'rules_for_paths', args);
      expect(bad.isError, JSON.stringify(args)).toBe(true);
      expect(bad.text).toMatch(field);
    }
    const untrusted = await assemble({ repo: gitUrl('sample'), trusted: false });
    const refused = await callTool(acme.client, 'rules_for_paths', { taskId: untrusted.taskId, paths: ['src'] });
    expect(refused).toMatchObject({ isError: true, text: expect.stringContaining('untrusted'), structured: { status: 'skipped' } });
  });

  it('posts a follow-up to the mailbox once per id, and refuses an empty one naming text', async () => {
    const { taskId } = await assemble({ repo: gitUrl('sample') });
    const posted = await callTool(acme.client, 'post_followup', { taskId, from: '@ana', text: 'Also update the changelog.', id: 'f-1' });
    expect(posted.structured).toMatchObject({ duplicate: false, item: { from: '@ana', type: 'mailbox' } });
    const again = await callTool(acme.client, 'post_followup', { taskId, from: '@ana', text: 'Also update the changelog.', id: 'f-1' });
    expect(again.structured['duplicate']).toBe(true);
    const empty = await callTool(acme.client, 'post_followup', { taskId, from: '@ana', text: ' ' });
    expect(empty.isError).toBe(true);
    expect(empty.text).toMatch(/text/);
    expect(TaskDescriptionSchema.parse((await api('GET', `/tasks/${taskId}`)).json).mailbox.count).toBe(1);
  });

  it('remembers, recalls and retires knowledge in the caller’s scope, refusing bad input naming the field', async () => {
    const repo = gitUrl('sample');
    const head = fixtures().sample.head;
    const remembered = await callTool(acme.client, 'remember', { repo, statement: 'Releases are cut from main.', source: { uri: `${repo}#AGENTS.md`, path: 'AGENTS.md', revision: head } });
    expect(remembered.isError, remembered.text).toBeFalsy();
    const knowledge = remembered.structured['knowledge'] as { id: string; kind: string; author: string };
    expect(knowledge).toMatchObject({ kind: 'fact', author: 'api:acme' });
    expect((await api('GET', `/knowledge/${knowledge.id}`)).json).toMatchObject({ statement: 'Releases are cut from main.', status: 'active' });

    const recalled = await callTool(acme.client, 'recall', { repo, status: 'active' });
    expect(recalled.text).toContain(knowledge.id);
    const retired = await callTool(acme.client, 'retire_knowledge', { id: knowledge.id, reason: 'We release from tags now.' });
    expect(retired.isError, retired.text).toBeFalsy();
    // Retiring makes a new version; the one remembered now names it.
    const current = retired.structured['knowledge'] as { id: string };
    expect((await api('GET', `/knowledge/${current.id}`)).json).toMatchObject({ status: 'retired', retiredReason: 'We release from tags now.' });
    expect((await api('GET', `/knowledge/${knowledge.id}`)).json).toMatchObject({ supersededBy: current.id });
    expect((await callTool(acme.client, 'recall', { repo, status: 'active' })).text).not.toContain(knowledge.id);

    for (const [name, args, field] of [
      ['remember', { repo, statement: 'x', source: { uri: 'nowhere' } }, /source\.uri/],
      ['remember', { repo, statement: 'x' }, /source/],
      ['remember', { repo, statement: 'x', source: { uri: 'https://x.test' }, reviewBy: '2001-01-01' }, /reviewBy/],
      ['recall', { repo, status: 'forgotten' }, /status/],
      ['recall', { repo, cursor: 'nonsense' }, /cursor/],
      ['retire_knowledge', { id: knowledge.id, reason: '' }, /reason/],
      ['retire_knowledge', { id: `k_${'0'.repeat(64)}_${'0'.repeat(16)}`, reason: 'gone' }, /no knowledge/],
    ] as const) {
      const bad = await callTool(acme.client, name, args);
      expect(bad.isError, `${name} ${JSON.stringify(args)}`).toBe(true);
      expect(bad.text).toMatch(field);
    }
  });

  it('offers each ready task’s turns and the files it read as resources', async () => {
    const { taskId, structured } = await assemble({ repo: gitUrl('sample') });
    const templates = (await acme.client.listResourceTemplates()).resourceTemplates.map((template) => template.uriTemplate);
    expect(templates.sort()).toEqual(['groundwork://tasks/{taskId}/sources/{+path}', 'groundwork://tasks/{taskId}/turns/{turn}']);
    const listed = (await acme.client.listResources()).resources.map((resource) => resource.uri);
    expect(listed).toContain(`groundwork://tasks/${taskId}/turns/0`);

    const turn = await acme.client.readResource({ uri: `groundwork://tasks/${taskId}/turns/0` });
    const [turnContent] = turn.contents;
    expect(turnContent && 'text' in turnContent ? AssembledTurnSchema.parse(JSON.parse(turnContent.text)).digest : undefined).toBe(structured['digest']);

    const source = await acme.client.readResource({ uri: `groundwork://tasks/${taskId}/sources/AGENTS.md` });
    const [file] = source.contents;
    expect(file && 'text' in file ? file.text : '').toContain('Run `npm test` before committing.');
    expect(file?._meta).toMatchObject({ path: 'AGENTS.md', revision: fixtures().sample.head, blob: expect.stringMatching(/^[0-9a-f]{40}$/) });

    await expect(acme.client.readResource({ uri: `groundwork://tasks/${taskId}/sources/README.md` })).rejects.toThrow(/given no file README\.md/);
    await expect(acme.client.readResource({ uri: `groundwork://tasks/${taskId}/turns/7` })).rejects.toThrow(/turn 7/);
    await expect(acme.client.readResource({ uri: `groundwork://tasks/${taskId}/sources/..%2Fsecret` })).rejects.toThrow();
  });
});

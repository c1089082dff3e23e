/**
 * Freshness of the rule set through the Worker and the Task object, on a git remote: the read-back
 * (REST), a later turn's notice and the rules it brings, the MCP tool and the inspector, after a
 * push that changes what applies in every way freshness tells apart.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AssembledTurnSchema, type AssembledTurn } from '../../src/context/turn-schema.ts';
import { FreshnessReportSchema } from '../../src/freshness/report.ts';
import { TaskDescriptionSchema } from '../../src/tasks/task-results.ts';
import { api, settled, waitForTask } from '../support/api.ts';
import { createTestRemote } from '../support/git-remote.ts';
import { callTool, connectMcp, type McpConnection } from '../support/mcp-client.ts';
import { HEAD_RULES, PIN_RULES, ruleSetLines } from '../support/rule-set-changes.ts';
import { openPage, textOf } from '../inspector/support.ts';

const FILES = {
  'AGENTS.md': '# Rules\n\nRun the tests.\n',
  '.agents/skills/tdd/SKILL.md': '---\nname: tdd\ndescription: Write the failing test first.\n---\nRed, green, refactor.\n',
  'README.md': 'An app.\n',
};

let mcp: McpConnection;
beforeAll(async () => {
  mcp = await connectMcp();
  // Listed once, so the SDK client checks every check_freshness answer below, a changed rule set
  // with its changes included, against the tool's output schema (src/mcp/tool-outputs.ts).
  await mcp.client.listTools();
});
afterAll(async () => {
  await mcp.close();
});

async function readyTask(body: Record<string, unknown>): Promise<{ id: string; viewUrl: string }> {
  const created = await api('POST', '/tasks', { body: { ref: 'main', request: 'Fix the build.', ...body } });
  expect(created.status).toBe(202);
  const id = String(created.json['id']);
  expect(TaskDescriptionSchema.parse(await waitForTask(id, settled))).toMatchObject({ status: 'ready' });
  return { id, viewUrl: String(created.json['viewUrl']) };
}

async function beginTurn(id: string, turn: number): Promise<AssembledTurn> {
  const res = await api('POST', `/tasks/${id}/turns`, { body: { turn } });
  expect(res.status).toBe(200);
  return AssembledTurnSchema.parse(res.json);
}

async function readBack(id: string) {
  const res = await api('GET', `/tasks/${id}/freshness`);
  expect(res.status).toBe(200);
  return FreshnessReportSchema.parse(res.json);
}

describe('freshness of the rule set, through the Worker on a git remote', () => {
  it('reproduces the issue: an AGENTS.override.md pushed for the working directory is a change, not "unchanged"', async () => {
    const remote = await createTestRemote({ 'AGENTS.md': 'ROOT\n', 'src/AGENTS.md': 'SRC\n' });
    const { id } = await readyTask({ repo: remote.url, cwd: 'src' });
    const head = await remote.push({ 'src/AGENTS.override.md': 'OVERRIDE\n', 'src/sub/AGENTS.md': 'SUB\n' });
    const report = await readBack(id);
    expect(report).toMatchObject({ commit: remote.first, current: head, moved: true, ruleSet: { status: 'changed' } });
    expect(report.ruleSet?.changes.map((change) => change.line)).toEqual(['src/AGENTS.override.md added: it replaces src/AGENTS.md for src']);
    expect(report.sources.map((s) => [s.path, s.status])).toEqual([
      ['AGENTS.md', 'unchanged'],
      ['src/AGENTS.md', 'unchanged'],
    ]);

    const turn = await beginTurn(id, 1);
    const item = turn.items.at(-1);
    const content = item?.type === 'context' ? item.content : '';
    expect(content).toContain('- src/AGENTS.override.md added: it replaces src/AGENTS.md for src\n- AGENTS.md: unchanged\n');
    expect(content).not.toContain('src/AGENTS.md: unchanged');
    expect(content).toContain('OVERRIDE');
  });

  it('says the rules added where the model was given none, which the sources alone cannot', async () => {
    const remote = await createTestRemote({ 'README.md': 'An app.\n' });
    const { id } = await readyTask({ repo: remote.url });
    await remote.push({ 'AGENTS.md': 'Run the linter.\n' });
    const report = await readBack(id);
    expect(report.sources).toEqual([]);
    expect(report.ruleSet?.changes.map((change) => change.line)).toEqual(['AGENTS.md added: it applies to .']);
    const turn = await beginTurn(id, 1);
    expect(turn.providers.find((p) => p.name === 'freshness')).toMatchObject({ outcome: 'included' });
    expect(turn.entries.map((entry) => [entry.provider, entry.title, entry.source.path ?? null])).toEqual([
      ['freshness', 'Freshness: main moved', null],
      ['freshness', 'AGENTS.md', 'AGENTS.md'],
    ]);
  });

  it('names every kind of change once, brings what now applies once, and says what no longer applies: REST, later turns, MCP and the inspector', async () => {
    const remote = await createTestRemote({ ...FILES, ...PIN_RULES });
    const { id, viewUrl } = await readyTask({ repo: remote.url, cwd: 'src', request: 'Fix the build. Use $tdd.' });
    const head = await remote.push(HEAD_RULES);
    const lines = ruleSetLines('src', 'the working directory src');

    const report = await readBack(id);
    expect(report).toMatchObject({ commit: remote.first, current: head, moved: true, ruleSet: { status: 'changed' } });
    expect(report.ruleSet?.changes.map((change) => change.line)).toEqual(lines);
    expect(report.ruleSet?.changes.map((change) => change.change)).toEqual([
      'settings',
      'renamed',
      'no-longer-applies',
      'now-applies',
      'no-longer-applies',
      'removed',
      'added',
      'no-longer-applies',
      'added',
      'added',
      'skill-root',
    ]);
    const override = report.ruleSet?.changes.find((change) => change.path === 'src/AGENTS.override.md');
    expect(override).toMatchObject({ from: 'src/AGENTS.md', currentVerdict: 'applied' });
    // It was not in the tree at the pin, so it had no verdict there.
    expect(override).not.toHaveProperty('verdict');
    // The given file whose content changed is the sources' to say, once.
    expect(report.sources.find((s) => s.path === '.claude/rules/style.md')).toMatchObject({ status: 'changed' });

    // Turn 1: one notice with every line, then the text of what applies now and did not, read at the head.
    const turn = await beginTurn(id, 1);
    const item = turn.items.at(-1);
    expect(item?.id).toBe('local:context:1');
    const content = item?.type === 'context' ? item.content : '';
    for (const line of lines) expect(content).toContain(`- ${line}\n`);
    expect(content).toContain('- .claude/rules/style.md: changed');
    expect(content).toContain('rules that no longer apply must not be followed');
    const brought = turn.entries.filter((entry) => entry.title !== 'Freshness: main moved');
    expect(brought.map((entry) => [entry.title, entry.source.revision])).toEqual([
      ['.github/instructions/api.instructions.md', head],
      ['docs/new.md', head],
      ['src/AGENTS.override.md', head],
    ]);
    expect(content).toContain('Src override: run the integration tests.');
    expect(content).toContain('New import.');
    // The renamed rule has the text turn 0 gave: not given again.
    expect(turn.providers.find((p) => p.name === 'freshness')?.reason).toContain('.cursor/rules/kept.mdc has the same content as .cursor/rules/legacy.mdc, given on turn 0');

    // Turn 2, after a push that touches no rule: told once, nothing brought again.
    await remote.push({ 'README.md': 'An app, documented.\n' });
    const later = await beginTurn(id, 2);
    expect(later.items.map((i) => i.id)).toEqual(['local:task', 'local:context:1']);
    expect(later.providers.find((p) => p.name === 'freshness')?.reason).toMatch(/none of the \d+ sources the model was given changed and the rules that apply are the same$/);
    // The read-back still compares from the pin.
    expect((await readBack(id)).ruleSet?.changes.map((change) => change.line)).toEqual(lines);

    // The MCP tool answers the same, in words and as JSON.
    const tool = await callTool(mcp.client, 'check_freshness', { taskId: id });
    expect(tool.isError).toBeFalsy();
    for (const line of lines) expect(tool.text).toContain(`- ${line}\n`);
    expect(tool.text).toContain('Follow the rules that apply now');
    expect(tool.structured['ruleSet']).toMatchObject({ status: 'changed' });

    // The inspector: a count, and a row per change with its line.
    const link = new URL(viewUrl);
    link.searchParams.set('freshness', '1');
    const page = await openPage(link.href);
    expect(page.status).toBe(200);
    const text = textOf(page.html);
    expect(text).toMatch(/Rules that apply\s*11 changes/);
    const rows = [...page.html.matchAll(/<tr data-change="([a-z-]+)">((?:(?!<\/tr>).)*)<\/tr>/g)].map((m) => [m[1], textOf((m[2] ?? '').split('</td>')[3] ?? '')]);
    expect(rows.map(([, line]) => line)).toEqual(lines);
  });
});

describe('freshness of the rule set for a task that named its client (issue 50), through the Worker', () => {
  it('tells what Claude Code loads itself from what Groundwork must give it, counts a verdict that changed for it, and brings only the text it will not load: REST, a later turn, MCP and the inspector', async () => {
    const remote = await createTestRemote({ 'AGENTS.md': 'Run the tests.\n', 'README.md': 'An app.\n' });
    const { id, viewUrl } = await readyTask({ repo: remote.url, client: 'claude-code' });
    const head = await remote.push({ 'CLAUDE.md': 'Claude: keep commits small.\n', '.github/copilot-instructions.md': 'Prefer small functions.\n' });
    const lines = [
      '.github/copilot-instructions.md added: always (repository-wide Copilot instructions); given by Groundwork: Claude Code does not read copilot-instructions.md',
      'AGENTS.md is now given by Groundwork: it applies to .; Claude Code reads CLAUDE.md instead',
      'CLAUDE.md added: it applies to .; Claude Code loads it itself at start',
    ];

    const report = await readBack(id);
    expect(report).toMatchObject({ commit: remote.first, current: head, moved: true, ruleSet: { status: 'changed', client: 'claude-code' } });
    expect(report.ruleSet?.changes.map((change) => change.line)).toEqual(lines);
    expect(report.ruleSet?.changes.map((change) => [change.path, change.verdict ?? null, change.currentVerdict])).toEqual([
      ['.github/copilot-instructions.md', null, 'applied'],
      ['AGENTS.md', 'loaded-by-client', 'applied'],
      ['CLAUDE.md', null, 'loaded-by-client'],
    ]);

    // Turn 1: the lines, then the text Claude Code will not load itself (the AGENTS.md it no longer reads, the Copilot file), never the CLAUDE.md it loads.
    const turn = await beginTurn(id, 1);
    const item = turn.items.at(-1);
    const content = item?.type === 'context' ? item.content : '';
    for (const line of lines) expect(content).toContain(`- ${line}\n`);
    expect(turn.entries.filter((entry) => entry.provider === 'freshness' && entry.source.path !== undefined).map((entry) => [entry.source.path, entry.source.revision])).toEqual([
      ['.github/copilot-instructions.md', head],
      ['AGENTS.md', head],
    ]);
    expect(content).toContain('Run the tests.');
    expect(content).not.toContain('keep commits small');

    const tool = await callTool(mcp.client, 'check_freshness', { taskId: id });
    for (const line of lines) expect(tool.text).toContain(`- ${line}\n`);
    expect(tool.structured['ruleSet']).toMatchObject({ status: 'changed', client: 'claude-code' });

    const link = new URL(viewUrl);
    link.searchParams.set('freshness', '1');
    const page = await openPage(link.href);
    const rows = [...page.html.matchAll(/<tr data-change="([a-z-]+)">((?:(?!<\/tr>).)*)<\/tr>/g)].map((m) => textOf((m[2] ?? '').split('</td>')[3] ?? ''));
    expect(rows).toEqual(lines);
    expect(textOf(page.html)).toContain('as Claude Code sees them');
  });

  it('says new content of a rule file Codex loaded itself, which the model was never given as an entry', async () => {
    const remote = await createTestRemote({ 'AGENTS.md': 'Run the tests.\n' });
    const { id } = await readyTask({ repo: remote.url, client: 'codex' });
    await remote.push({ 'AGENTS.md': 'Run the tests and the linter.\n' });
    const report = await readBack(id);
    expect(report.ruleSet?.changes.map((change) => [change.change, change.line.replace(/[0-9a-f]{7} -> [0-9a-f]{7}/, 'X -> Y')])).toEqual([['changed', 'AGENTS.md changed (blob X -> Y); Codex loads it itself at start']]);
  });
});

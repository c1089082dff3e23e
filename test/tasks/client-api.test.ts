// The client on POST /tasks: stored with the task, shown back, and the rules of turn 0 are the
// complement of what it loads itself (issue 50).
import { describe, expect, inject, it } from 'vitest';
import { AssembledTurnSchema } from '../../src/context/turn-schema.ts';
import { api, settled, waitForTask } from '../support/api.ts';

const base = () => `http://127.0.0.1:${inject('gitHttpPort')}`;
const deep = () => inject('gitHttpFixtures').deep;

async function turnOf(client: string) {
  const { cwd } = deep();
  const created = await api('POST', '/tasks', { body: { repo: `${base()}/deep.git`, request: 'Follow the rules.', cwd, client } });
  expect(created.status).toBe(202);
  const id = String(created.json['id']);
  const task = await waitForTask(id, settled);
  expect(task['status']).toBe('ready');
  return { task, turn: AssembledTurnSchema.parse((await api('GET', `/tasks/${id}/turns/0`)).json) };
}

describe('POST /tasks with a client', () => {
  it('stores the client, answers it on GET /tasks/:id, and gives none of the files Codex loads itself', async () => {
    const { cwd, head } = deep();
    const { task, turn } = await turnOf('Codex');
    expect((task['request'] as Record<string, unknown>)['client']).toBe('codex');
    expect(turn.client).toBe('codex');
    const rules = turn.entries.filter((entry) => entry.provider === 'rules');
    expect(rules.map((entry) => entry.title)).toEqual(['Rule files Codex loads itself']);
    const user = turn.messages.find((message) => message.role === 'user')?.content ?? '';
    expect(user).not.toContain('Root rules: keep changes small.');
    expect(user).toContain('Codex loads these rule files itself at start, so they are not repeated here: AGENTS.md (blob');
    const verdicts = turn.providers.find((provider) => provider.name === 'rules')?.verdicts ?? [];
    expect(verdicts.map((verdict) => [verdict.path, verdict.verdict])).toEqual([
      ['AGENTS.md', 'loaded-by-client'],
      [`${cwd}/AGENTS.md`, 'loaded-by-client'],
    ]);
    expect(verdicts[0]?.clients?.map((cell) => `${cell.client}:${cell.cell}`)).toEqual(['none:given', 'codex:loaded', 'claude-code:loaded', 'gemini-cli:given', 'copilot:given', 'cursor:given']);
    expect(turn.commit).toBe(head);
  });

  it('gives a client of a version that does not read AGENTS.md every file, each saying why', async () => {
    const { turn } = await turnOf('claude-code@2.1.200');
    expect(turn.client).toBe('claude-code@2.1.200');
    const rules = turn.entries.filter((entry) => entry.provider === 'rules');
    expect(rules.map((entry) => entry.source.path)).toEqual(['AGENTS.md', `${deep().cwd}/AGENTS.md`]);
    for (const entry of rules) expect(entry.why).toBe('Claude Code before 2.1.277 reads AGENTS.md only through an @AGENTS.md import');
    const user = turn.messages.find((message) => message.role === 'user')?.content ?? '';
    expect(user).toContain('why="Claude Code before 2.1.277 reads AGENTS.md only through an @AGENTS.md import"');
  });

  it('on a later turn adds what the new path brings that the client does not load, never the files it loaded at start', async () => {
    const { cwd } = deep();
    const created = await api('POST', '/tasks', { body: { repo: `${base()}/deep.git`, request: 'Follow the rules.', client: 'codex' } });
    const id = String(created.json['id']);
    expect((await waitForTask(id, settled))['status']).toBe('ready');
    expect((await api('POST', `/tasks/${id}/paths`, { body: { paths: [`${cwd}/a.ts`] } })).status).toBe(201);
    const begun = await api('POST', `/tasks/${id}/turns`, { body: { turn: 1 } });
    expect(begun.status, JSON.stringify(begun.json)).toBe(200);
    const later = AssembledTurnSchema.parse(begun.json);
    const rules = later.entries.filter((entry) => entry.provider === 'rules');
    expect(rules.map((entry) => [entry.source.path, entry.why])).toEqual([[`${cwd}/AGENTS.md`, 'Codex reads AGENTS.md files only from the root down to the repository root, once at start']]);
    const verdicts = later.providers.find((provider) => provider.name === 'rules')?.verdicts ?? [];
    expect(verdicts.map((verdict) => [verdict.path, verdict.verdict])).toEqual([
      ['AGENTS.md', 'loaded-by-client'],
      [`${cwd}/AGENTS.md`, 'applied'],
    ]);
  });

  it.each([
    ['vim', 'client: unknown client "vim": must be one of none, codex, claude-code, gemini-cli, copilot, cursor'],
    ['codex@latest', 'client: client version "latest" is not a version number'],
    ['copilot:web', 'client: unknown client "copilot:web": one of copilot:vscode, copilot:cli'],
  ])('refuses client %j with a 400 naming the field and the known clients', async (client, message) => {
    const res = await api('POST', '/tasks', { body: { repo: `${base()}/deep.git`, request: 'Follow the rules.', client } });
    expect(res.status).toBe(400);
    expect(res.json.error).toMatchObject({ code: 'bad_request' });
    expect(res.json.error?.message).toContain(message);
  });
});

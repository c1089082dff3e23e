import { env } from 'cloudflare:workers';
import { listDurableObjectIds, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { contextItemId, TASK_ITEM_ID } from '../../src/context/transcript.ts';
import { AssembledTurnSchema, type AssembledTurn } from '../../src/context/turn-schema.ts';
import { TaskDescriptionSchema } from '../../src/tasks/task-results.ts';
import { api, settled, waitForTask } from '../support/api.ts';
import { createTestRemote, type TestRemote } from '../support/git-remote.ts';

const MONOREPO = {
  'AGENTS.md': 'Root: run the tests of every package you touch.\n',
  'packages/api/AGENTS.md': 'API: handlers validate with zod.\n',
  'packages/api/src/handler.ts': 'export {};\n',
  'packages/web/AGENTS.md': 'Web: components are small.\n',
  'packages/web/src/app.tsx': 'export {};\n',
  'packages/web/src/widgets/AGENTS.md': 'Widgets: one per file.\n',
  'packages/web/src/widgets/button.tsx': 'export {};\n',
  '.agents/skills/release/SKILL.md': '---\nname: release\ndescription: Cut a release.\n---\nTag, then publish.\n',
};

const stubOf = (id: string) => env.TASKS.get(env.TASKS.idFromString(id));

async function readyTask(remote: TestRemote, body: Record<string, unknown> = {}): Promise<string> {
  const res = await api('POST', '/tasks', { body: { repo: remote.url, request: 'Fix the flaky test.', ...body } });
  expect(res.status, JSON.stringify(res.json)).toBe(202);
  const id = String(res.json['id']);
  const task = TaskDescriptionSchema.parse(await waitForTask(id, settled));
  expect(task.status, task.reason ?? '').toBe('ready');
  return id;
}

async function turn(id: string, n: number): Promise<AssembledTurn> {
  const begun = await api('POST', `/tasks/${id}/turns`, { body: { turn: n } });
  expect(begun.status, JSON.stringify(begun.json)).toBe(200);
  return AssembledTurnSchema.parse(begun.json);
}

const rulesOf = (t: AssembledTurn) => t.entries.filter((entry) => entry.provider === 'rules').map((entry) => entry.title);
const focusRows = (id: string) => runInDurableObject(stubOf(id), (_, state) => Number(state.storage.sql.exec('SELECT COUNT(*) AS n FROM focus').one()['n']));

describe('paths on POST /tasks', () => {
  it('reads the rules of each path’s directories at turn 0, after the shared working-directory chain', async () => {
    const remote = await createTestRemote(MONOREPO);
    const id = await readyTask(remote, { cwd: 'packages/api', paths: ['./packages/web/src/app.tsx', 'packages/web/src/app.tsx/'] });
    const described = TaskDescriptionSchema.parse((await api('GET', `/tasks/${id}`)).json);
    expect(described.request.paths).toEqual(['packages/web/src/app.tsx', 'packages/web/src/app.tsx']);
    const first = AssembledTurnSchema.parse((await api('GET', `/tasks/${id}/turns/0`)).json);
    expect(first.focusPaths).toEqual(['packages/web/src/app.tsx']);
    expect(first.entries.filter((e) => e.provider === 'rules').map((e) => [e.title, e.stability])).toEqual([
      ['AGENTS.md', 'commit'],
      ['packages/api/AGENTS.md', 'commit'],
      ['packages/web/AGENTS.md', 'task'],
    ]);
  });

  it('refuses a bad path naming paths[i] and stores nothing', async () => {
    const remote = await createTestRemote(MONOREPO);
    const before = (await listDurableObjectIds(env.TASKS)).length;
    const cases: Array<[unknown, string]> = [
      [['packages/api', '../etc/passwd'], 'paths[1]: must not contain ..'],
      [['packages/../etc'], 'paths[0]: must not contain ..'],
      [['/etc/passwd'], 'paths[0]: path is absolute'],
      [['ok', 'a\\b'], 'paths[1]: path contains a backslash'],
      [['x'.repeat(1025)], 'paths[0]:'],
      [Array.from({ length: 65 }, (_, i) => `p${i}`), 'paths: at most 64 paths'],
      ['packages/api', 'paths:'],
    ];
    for (const [paths, message] of cases) {
      const res = await api('POST', '/tasks', { body: { repo: remote.url, request: 'x', paths } });
      expect(res.status).toBe(400);
      expect(res.json.error).toMatchObject({ code: 'bad_request', message: expect.stringContaining(message) });
    }
    expect(await listDurableObjectIds(env.TASKS)).toHaveLength(before);
  });
});

describe('POST /tasks/:id/paths', () => {
  it('gives the next turn exactly the rules the new paths bring, once; a second identical post changes nothing', async () => {
    const remote = await createTestRemote(MONOREPO);
    const id = await readyTask(remote, { cwd: 'packages/api' });

    const posted = await api('POST', `/tasks/${id}/paths`, { body: { paths: ['packages/web/src/widgets/button.tsx'] } });
    expect(posted.status).toBe(201);
    expect(posted.json).toEqual({ paths: { recorded: ['packages/web/src/widgets/button.tsx'], duplicates: [] }, skills: { recorded: [], duplicates: [] }, rules: { recorded: [], duplicates: [] }, nextTurn: 1 });

    const one = await turn(id, 1);
    expect(one.moved).toEqual({ paths: ['packages/web/src/widgets/button.tsx'], skills: [], rules: [] });
    expect(rulesOf(one)).toEqual(['packages/web/AGENTS.md', 'packages/web/src/widgets/AGENTS.md']);
    const context = one.items.find((item) => item.id === contextItemId(1));
    expect(context?.type).toBe('context');
    const text = context && 'content' in context ? context.content : '';
    expect(text).toContain('Web: components are small.');
    expect(text).toContain('Widgets: one per file.');
    // Given on turn 0 already: the root and the working directory's chain are never repeated.
    expect(text).not.toContain('Root: run the tests');
    expect(text).not.toContain('API: handlers');
    expect(text).toContain('applies-to="packages/web/src/widgets/button.tsx"');
    expect(one.items.map((item) => item.id)).toEqual([TASK_ITEM_ID, contextItemId(1)]);

    const again = await api('POST', `/tasks/${id}/paths`, { body: { paths: ['packages/web/src/widgets/button.tsx', './packages/api'] } });
    expect(again.status).toBe(200);
    expect(again.json).toEqual({ paths: { recorded: [], duplicates: ['packages/web/src/widgets/button.tsx', 'packages/api'] }, skills: { recorded: [], duplicates: [] }, rules: { recorded: [], duplicates: [] }, nextTurn: 2 });
    expect(await focusRows(id)).toBe(1);

    const two = await turn(id, 2);
    expect(two.moved).toBeUndefined();
    expect(two.providers.find((p) => p.name === 'rules')).toMatchObject({ outcome: 'turn-gated' });
    expect(two.items.map((item) => item.id)).toEqual([TASK_ITEM_ID, contextItemId(1)]);
  });

  it('gives the next turn the scoped rules a new path newly matches (Copilot applyTo, Cursor globs, Claude paths), each once, with verdicts', async () => {
    const remote = await createTestRemote({
      ...MONOREPO,
      '.github/instructions/web.instructions.md': '---\napplyTo: "packages/web/**"\n---\nCopilot web: use the design tokens.\n',
      '.github/instructions/api.instructions.md': '---\napplyTo: "packages/api/**"\n---\nCopilot api: errors are typed.\n',
      '.cursor/rules/widgets.mdc': '---\nglobs: "packages/web/src/widgets/**"\nalwaysApply: false\n---\nCursor widgets: one story per widget.\n',
      '.cursor/rules/always.mdc': '---\nalwaysApply: true\n---\nCursor: keep functions short.\n',
      'packages/web/.cursor/rules/nested.mdc': '---\nalwaysApply: true\n---\nCursor nested web: no default exports.\n',
      '.claude/rules/web.md': '---\npaths: packages/web/**/*.tsx\n---\nClaude web: no inline styles.\n',
    });
    const id = await readyTask(remote, { cwd: 'packages/api' });
    const first = AssembledTurnSchema.parse((await api('GET', `/tasks/${id}/turns/0`)).json);
    expect(rulesOf(first)).toEqual(expect.arrayContaining(['.github/instructions/api.instructions.md', '.cursor/rules/always.mdc']));
    expect(rulesOf(first)).not.toContain('.github/instructions/web.instructions.md');

    expect((await api('POST', `/tasks/${id}/paths`, { body: { paths: ['packages/web/src/app.tsx'] } })).status).toBe(201);
    const one = await turn(id, 1);
    expect(rulesOf(one)).toEqual(['packages/web/AGENTS.md', 'packages/web/.cursor/rules/nested.mdc', '.claude/rules/web.md', '.github/instructions/web.instructions.md']);
    const verdicts = one.providers.find((p) => p.name === 'rules')?.verdicts ?? [];
    expect(verdicts.map((v) => [v.path, v.verdict, v.reason])).toEqual(
      expect.arrayContaining([
        ['.github/instructions/web.instructions.md', 'applied', 'applyTo "packages/web/**" matched packages/web/src/app.tsx'],
        ['.claude/rules/web.md', 'applied', expect.stringContaining('matched packages/web/src/app.tsx')],
      ]),
    );
    // Given on turn 0, or matching nothing the new path is: never in the later turn.
    for (const path of ['.cursor/rules/always.mdc', '.github/instructions/api.instructions.md', '.cursor/rules/widgets.mdc']) expect(verdicts.map((v) => v.path)).not.toContain(path);

    expect((await api('POST', `/tasks/${id}/paths`, { body: { paths: ['packages/web/src/widgets/button.tsx'] } })).status).toBe(201);
    const two = await turn(id, 2);
    // The widgets' own chain file and the Cursor rule whose globs only this path matches; what turn 1 gave is not repeated.
    expect(rulesOf(two)).toEqual(['packages/web/src/widgets/AGENTS.md', '.cursor/rules/widgets.mdc']);
    expect(two.providers.find((p) => p.name === 'rules')?.reason).toContain('.claude/rules/web.md was given on turn 1');
  });

  it('gives an agent-requested rule asked for by name on the next turn, in full, once; a name the index does not list is a 400 naming rules[i]', async () => {
    const remote = await createTestRemote({
      ...MONOREPO,
      '.cursor/rules/database.mdc': '---\ndescription: How to write database migrations\nalwaysApply: false\n---\nDatabase: every migration is reversible.\n',
      '.cursor/rules/release.mdc': '---\ndescription: How releases are cut\nalwaysApply: false\n---\nRelease: tag from main.\n',
    });
    const id = await readyTask(remote);
    const first = AssembledTurnSchema.parse((await api('GET', `/tasks/${id}/turns/0`)).json);
    expect(first.providers.find((p) => p.name === 'rules')?.verdicts?.find((v) => v.path === '.cursor/rules/database.mdc')?.verdict).toBe('indexed');

    const unknown = await api('POST', `/tasks/${id}/paths`, { body: { rules: ['database', 'nope'] } });
    expect(unknown.status).toBe(400);
    expect(unknown.json.error?.message).toMatch(/^rules\[1\]: "nope" is not an agent-requested rule of turn 0's rules index; the index lists database, release$/);
    expect(await focusRows(id)).toBe(0);
    const empty = await api('POST', `/tasks/${id}/paths`, { body: { rules: [' '] } });
    expect([empty.status, empty.json.error?.message]).toEqual([400, expect.stringContaining('rules[0]')]);

    const posted = await api('POST', `/tasks/${id}/paths`, { body: { rules: ['database'] } });
    expect(posted.status).toBe(201);
    expect(posted.json).toEqual({ paths: { recorded: [], duplicates: [] }, skills: { recorded: [], duplicates: [] }, rules: { recorded: ['database'], duplicates: [] }, nextTurn: 1 });
    const one = await turn(id, 1);
    expect(one.moved).toEqual({ paths: [], skills: [], rules: ['database'] });
    expect(rulesOf(one)).toEqual(['.cursor/rules/database.mdc']);
    const context = one.items.find((item) => item.id === contextItemId(1));
    expect(context && 'content' in context ? context.content : '').toContain('Database: every migration is reversible.');
    expect(one.providers.find((p) => p.name === 'rules')?.verdicts).toEqual([{ path: '.cursor/rules/database.mdc', blob: expect.any(String), format: 'cursor-rule', verdict: 'applied', reason: 'requested by name (database)' }]);

    // By path it is the same rule: a duplicate of nothing recorded, but given already, so the turn adds nothing.
    const again = await api('POST', `/tasks/${id}/paths`, { body: { rules: ['database'] } });
    expect([again.status, again.json['rules']]).toEqual([200, { recorded: [], duplicates: ['database'] }]);
    expect((await api('POST', `/tasks/${id}/paths`, { body: { rules: ['./.cursor/rules/database.mdc'] } })).status).toBe(201);
    const two = await turn(id, 2);
    expect(rulesOf(two)).toEqual([]);
    expect(two.providers.find((p) => p.name === 'rules')?.reason).toContain('rule .cursor/rules/database.mdc (.cursor/rules/database.mdc) was given on turn 1');
  });

  it('appends nothing when the new paths bring no rules the model was not given', async () => {
    const remote = await createTestRemote(MONOREPO);
    const id = await readyTask(remote, { cwd: 'packages/web' });
    expect((await api('POST', `/tasks/${id}/paths`, { body: { paths: ['packages/web/src/app.tsx'] } })).status).toBe(201);
    const one = await turn(id, 1);
    expect(one.providers.find((p) => p.name === 'rules')).toMatchObject({ outcome: 'empty', reason: expect.stringContaining('the 1 new focus path brings no rules the model was not given') });
    expect(one.items.map((item) => item.id)).toEqual([TASK_ITEM_ID]);
  });

  it('gives a skill asked for by name on the next turn, in full, and not again', async () => {
    const remote = await createTestRemote(MONOREPO);
    const id = await readyTask(remote);
    const posted = await api('POST', `/tasks/${id}/paths`, { body: { skills: ['release'] } });
    expect(posted.json).toMatchObject({ skills: { recorded: ['release'], duplicates: [] } });
    const one = await turn(id, 1);
    expect(one.entries.filter((e) => e.provider === 'skills').map((e) => e.title)).toEqual(['Selected skill: release']);
    expect(one.items.map((item) => item.id)).toEqual([TASK_ITEM_ID, contextItemId(1)]);
    expect((await api('POST', `/tasks/${id}/paths`, { body: { skills: ['release'] } })).json).toMatchObject({ skills: { recorded: [], duplicates: ['release'] } });
    const two = await turn(id, 2);
    expect(two.entries.filter((e) => e.provider === 'skills')).toEqual([]);
  });

  it('tracks what a later turn brought in the freshness check of the turns after it', async () => {
    const remote = await createTestRemote(MONOREPO);
    const id = await readyTask(remote, { cwd: 'packages/api' });
    await api('POST', `/tasks/${id}/paths`, { body: { paths: ['packages/web'] } });
    expect(rulesOf(await turn(id, 1))).toEqual(['packages/web/AGENTS.md']);
    await remote.push({ 'packages/web/AGENTS.md': 'Web: components are tiny now.\n' });
    const two = await turn(id, 2);
    const notice = two.entries.find((e) => e.provider === 'freshness');
    expect(notice?.title).toBe('Freshness: HEAD moved');
    const context = two.items.find((item) => item.id === contextItemId(2));
    expect(context && 'content' in context ? context.content : '').toMatch(/- packages\/web\/AGENTS\.md: changed/);
    const back = await api('GET', `/tasks/${id}/freshness`);
    expect(JSON.stringify(back.json)).toContain('packages/web/AGENTS.md');
  });

  it('refuses a bad body naming the field, and records nothing', async () => {
    const remote = await createTestRemote(MONOREPO);
    const id = await readyTask(remote);
    const cases: Array<[unknown, number, string]> = [
      [{ paths: ['ok', '../../etc'] }, 400, 'paths[1]: must not contain ..'],
      [{ paths: ['/abs'] }, 400, 'paths[0]: path is absolute'],
      [{ paths: [] }, 400, 'paths: name at least one path, skill or rule'],
      [{}, 400, 'paths: name at least one path, skill or rule'],
      [{ paths: ['a'], turn: 2 }, 400, 'turn'],
      [{ skills: ['Not A Skill!'] }, 400, 'skills[0]:'],
      [{ paths: Array.from({ length: 65 }, (_, i) => `p${i}`) }, 400, 'paths: at most 64 paths'],
    ];
    for (const [body, status, message] of cases) {
      const res = await api('POST', `/tasks/${id}/paths`, { body });
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.json.error).toMatchObject({ message: expect.stringContaining(message) });
    }
    expect((await api('POST', `/tasks/${id}/paths`, { body: 'not json' })).status).toBe(400);
    expect(await focusRows(id)).toBe(0);
  });

  it('bounds what one task takes, all or nothing, and keeps other tenants out', async () => {
    const remote = await createTestRemote(MONOREPO);
    const id = await readyTask(remote);
    for (let batch = 0; batch < 4; batch++) {
      const paths = Array.from({ length: 64 }, (_, i) => `gen/${batch}/${i}`);
      expect((await api('POST', `/tasks/${id}/paths`, { body: { paths } })).status).toBe(201);
    }
    const over = await api('POST', `/tasks/${id}/paths`, { body: { paths: ['one/more', 'and/another'] } });
    expect(over.status).toBe(413);
    expect(over.json.error).toMatchObject({ code: 'payload_too_large', message: expect.stringContaining('paths: a task takes at most 256 paths') });
    expect(await focusRows(id)).toBe(256);

    const other = await api('POST', `/tasks/${id}/paths`, { body: { paths: ['x'] }, tenant: 'globex' });
    expect(other.status).toBe(404);
    const missing = await api('POST', `/tasks/${'0'.repeat(64)}/paths`, { body: { paths: ['x'] } });
    expect(missing.status).toBe(404);
    expect((await api('GET', `/tasks/${id}/paths`)).status).toBe(405);
  });
});

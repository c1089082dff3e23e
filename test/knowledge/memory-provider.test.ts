import { afterEach, describe, expect, inject, it } from 'vitest';
import { KnowledgeSchema, type Knowledge } from '../../src/context/knowledge.ts';
import { AssembledTurnSchema, type AssembledTurn } from '../../src/context/turn-schema.ts';
import { api, settled, waitForTask } from '../support/api.ts';
import { daysFromToday, listAll, remember, setReviewDate } from './support.ts';

const base = () => `http://127.0.0.1:${inject('gitHttpPort')}`;
const fixtures = () => inject('gitHttpFixtures');
const sample = () => `${base()}/sample.git`;
const history = () => `${base()}/history.git`;
const short = (commit: string) => commit.slice(0, 12);

async function firstTurn(body: Record<string, unknown>): Promise<{ id: string; turn: AssembledTurn }> {
  const created = await api('POST', '/tasks', { body: { repo: sample(), request: 'Explain the build.', ...body } });
  expect(created.status).toBe(202);
  const id = String(created.json['id']);
  const task = await waitForTask(id, settled);
  expect(task['status'], JSON.stringify(task)).toBe('ready');
  return { id, turn: AssembledTurnSchema.parse((await api('GET', `/tasks/${id}/turns/0`)).json) };
}

const memory = (turn: AssembledTurn) => ({
  outcome: turn.providers.find((p) => p.name === 'memory'),
  entries: turn.entries.filter((e) => e.provider === 'memory'),
  content: String(turn.items[0]?.type === 'message' ? turn.items[0].content : ''),
});

/** The section of one knowledge object in the rendered first user message, its boundary written `B`. */
function section(content: string, id: string): string {
  const title = new RegExp(`<groundwork-context boundary="([0-9a-f]{16})" provider="memory" category="memory" title="[a-z-]+ ${id}"`).exec(content);
  if (!title) throw new Error(`no memory section for ${id}`);
  const close = `</groundwork-context boundary="${title[1]}">`;
  const text = content.slice(title.index, content.indexOf(close, title.index) + close.length);
  return text.split(`boundary="${title[1]}"`).join('boundary="B"');
}

// Tests in a file share storage: each leaves its scopes without active knowledge.
afterEach(async () => {
  for (const repo of [sample(), history()]) {
    for (const k of await listAll(repo, 'active')) await api('POST', `/knowledge/${k.id}/retire`, { body: { reason: 'test cleanup' } });
  }
});

describe('memory provider', () => {
  it('serves active knowledge for the task’s repository, most relevant first, with review date, kind, author and source', async () => {
    const elsewhere = await remember({ repo: sample(), statement: 'Docs are built with mkdocs.', paths: ['docs'] });
    const general = await remember({ repo: sample(), statement: 'The project uses tabs.' });
    const cwd = await remember({ repo: sample(), statement: 'Deep code must stay pure.', paths: ['src/app'], source: { uri: 'https://wiki.test/deep', path: 'src/app/deep/nested/file.ts', revision: fixtures().sample.head } });
    const named = await remember({ repo: sample(), kind: 'playbook', statement: 'Review skills with two people.', paths: ['skills/review'] });
    const newerGeneral = await remember({ repo: `${sample().replace('http://', 'http://reader:pw@')}/`, statement: 'Newer general fact.' });
    const otherRepo = await remember({ repo: history(), statement: 'About another repository.' });

    const { turn } = await firstTurn({ cwd: 'src/app/deep', request: 'Tighten skills/review/SKILL.md wording.' });
    const { outcome, entries, content } = memory(turn);
    expect(outcome).toMatchObject({ outcome: 'included', category: 'memory' });
    expect(outcome?.reason).toBeUndefined();
    expect(entries.map((e) => e.title)).toEqual([`playbook ${named.id}`, `fact ${cwd.id}`, `fact ${newerGeneral.id}`, `fact ${general.id}`, `fact ${elsewhere.id}`]);
    expect(content).not.toContain(otherRepo.statement);
    expect(entries[1]).toMatchObject({
      source: { uri: 'https://wiki.test/deep', path: 'src/app/deep/nested/file.ts', revision: fixtures().sample.head, blob: expect.stringMatching(/^[0-9a-f]{40}$/) },
      freshness: 'snapshot',
      stability: 'task',
      reviewBy: cwd.reviewBy,
      warnings: [],
    });
    expect(section(content, cwd.id)).toBe(
      [
        `<groundwork-context boundary="B" provider="memory" category="memory" title="fact ${cwd.id}" source="src/app/deep/nested/file.ts@${fixtures().sample.head}" uri="https://wiki.test/deep" freshness="snapshot" review-by="${cwd.reviewBy}">`,
        `fact by api:acme, recorded ${cwd.createdAt.slice(0, 10)}, review by ${cwd.reviewBy}`,
        'applies to: src/app',
        `provenance: checked: unchanged from ${short(fixtures().sample.head)} to ${short(fixtures().sample.head)}`,
        '',
        'Deep code must stay pure.',
        '</groundwork-context boundary="B">',
      ].join('\n'),
    );
    expect(section(content, general.id)).toContain('source="https://wiki.example.test/page"');
    expect(section(content, general.id)).toContain('provenance: not checkable: the source names no path@revision');
    // Memory is task-dependent: it follows the commit-stable context, before the task.
    expect(content.indexOf(named.statement)).toBeGreaterThan(content.indexOf('Run `npm test` before committing.'));
    expect(content.indexOf(named.statement)).toBeLessThan(content.indexOf('<groundwork-task'));
  });

  it('leaves out knowledge past its review date and names it in the outcome, and a refreshed version comes back', async () => {
    const fresh = await remember({ repo: sample(), statement: 'Still true.' });
    const stale = await remember({ repo: sample(), statement: 'Was true once.' });
    const staler = await remember({ repo: sample(), statement: 'Was true long ago.' });
    await setReviewDate(stale.id, daysFromToday(-1));
    await setReviewDate(staler.id, daysFromToday(-30));

    const { turn } = await firstTurn({});
    const { outcome, entries, content } = memory(turn);
    expect(entries.map((e) => e.title)).toEqual([`fact ${fresh.id}`]);
    expect(content).not.toContain('Was true');
    expect(outcome).toMatchObject({ outcome: 'included', reason: `2 past review date: ${[stale.id, staler.id].sort().join(', ')}` });

    // The refresh workflow: review it, then set a new review date (a new version).
    const refreshed = KnowledgeSchema.parse((await api('PATCH', `/knowledge/${stale.id}`, { body: { reviewBy: daysFromToday(30) } })).json);
    const again = memory((await firstTurn({})).turn);
    expect(again.entries.map((e) => e.title).sort()).toEqual([`fact ${fresh.id}`, `fact ${refreshed.id}`].sort());
    expect(again.outcome?.reason).toBe(`1 past review date: ${staler.id}`);
  });

  it('warns when the cited file changed since the cited revision, and says when it is unchanged or not checkable', async () => {
    const { first, head } = fixtures().sample;
    const changed = await remember({ repo: sample(), statement: 'The README calls this the first edition.', source: { uri: 'https://wiki.test/readme', path: 'README.md', revision: first } });
    const unchanged = await remember({ repo: sample(), statement: 'Run npm test before committing.', source: { uri: 'https://wiki.test/agents', path: 'docs/AGENTS.md', revision: first } });
    const never = await remember({ repo: sample(), statement: 'Cites a file that never existed.', source: { uri: 'https://wiki.test/x', path: 'nope.md', revision: first } });
    const unknownCommit = await remember({ repo: sample(), statement: 'Cites a commit the server does not have.', source: { uri: 'https://wiki.test/y', path: 'README.md', revision: 'e'.repeat(40) } });

    const { turn } = await firstTurn({});
    const { outcome, entries, content } = memory(turn);
    expect(outcome?.outcome).toBe('included');
    const byId = (k: Knowledge) => entries.find((e) => e.title.endsWith(k.id));
    expect(byId(changed)?.warnings).toEqual([`cited source changed since ${short(first)}: verify before acting`]);
    expect(section(content, changed.id)).toContain(`provenance: cited source changed since ${short(first)}: verify before acting`);
    expect(section(content, changed.id)).toContain(`source="README.md@${first}"`);
    expect(byId(unchanged)?.warnings).toEqual([]);
    expect(section(content, unchanged.id)).toContain(`provenance: checked: unchanged from ${short(first)} to ${short(head)}`);
    expect(byId(never)?.warnings).toEqual([`provenance not checkable: the cited path does not exist at ${short(first)}`]);
    expect(byId(unknownCommit)?.warnings[0]).toMatch(/^provenance not checkable: reading the cited path failed \(/);
    // The cited blob is what a later freshness check compares against.
    expect(byId(changed)?.source.blob).toMatch(/^[0-9a-f]{40}$/);
  });

  it('warns when the cited file no longer exists at the task’s commit', async () => {
    const { big, small } = fixtures().history;
    const gone = await remember({ repo: history(), statement: 'big.bin holds the test vectors.', source: { uri: 'https://wiki.test/vectors', path: 'big.bin', revision: big } });
    const { turn } = await firstTurn({ repo: history() });
    expect(turn.commit).toBe(small);
    const { entries, content } = memory(turn);
    expect(entries.map((e) => [e.title, e.warnings])).toEqual([[`fact ${gone.id}`, [`cited source no longer exists at ${short(small)}`]]]);
    expect(section(content, gone.id)).toContain(`provenance: cited source no longer exists at ${short(small)}`);
  });

  it('says “provenance not checked” for an agent without repository access', async () => {
    const k = await remember({ repo: sample(), statement: 'The README is short.', source: { uri: 'https://wiki.test/readme', path: 'README.md', revision: fixtures().sample.first } });
    const { turn } = await firstTurn({ agent: 'communicator' });
    const { outcome, entries, content } = memory(turn);
    expect(turn.providers.find((p) => p.name === 'rules')?.outcome).toBe('capability-gated');
    expect(outcome?.outcome).toBe('included');
    expect(entries.map((e) => e.warnings)).toEqual([['provenance not checked: no repository access in this task']]);
    expect(section(content, k.id)).toContain('provenance: not checked: no repository access in this task');

    // Knowledge is the tenant's, not the repository's: an untrusted task gets it, unchecked.
    const untrusted = memory((await firstTurn({ trusted: false })).turn);
    expect(untrusted.entries.map((e) => [e.title, e.warnings])).toEqual([[`fact ${k.id}`, ['provenance not checked: no repository access in this task']]]);
  });

  it('keeps whole objects within its budget and names the ones left out', async () => {
    const long = (n: number) => `${n} `.concat('Long playbook step. '.repeat(180));
    const made: Knowledge[] = [];
    for (let i = 0; i < 6; i++) made.push(await remember({ repo: sample(), kind: 'playbook', statement: long(i) }));
    const { turn } = await firstTurn({});
    const { outcome, entries } = memory(turn);
    const newestFirst = [...made].reverse().map((k) => k.id);
    const kept = entries.map((e) => e.title.replace('playbook ', ''));
    expect(kept).toEqual(newestFirst.slice(0, kept.length));
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(made.length);
    expect(entries.every((e) => !e.truncated)).toBe(true);
    const left = newestFirst.slice(kept.length);
    expect(outcome).toMatchObject({ outcome: 'included', reason: `${left.length} left out for memory's budget of 4000 tokens: ${left.join(', ')}` });
    expect(outcome?.tokens).toBeLessThanOrEqual(4000);
  });

  it('is not run for reviewers and explorers, and runs only on the first turn', async () => {
    await remember({ repo: sample(), statement: 'Something to remember.' });
    for (const agent of ['reviewer', 'explorer']) {
      const { turn } = await firstTurn({ agent });
      expect(turn.providers.map((p) => p.name)).not.toContain('memory');
      expect(turn.entries.filter((e) => e.provider === 'memory')).toEqual([]);
    }
    const { id } = await firstTurn({});
    const next = AssembledTurnSchema.parse((await api('POST', `/tasks/${id}/turns`, { body: { turn: 1 } })).json);
    expect(next.providers.find((p) => p.name === 'memory')).toMatchObject({ outcome: 'turn-gated' });
  });

  it('serves what an earlier task recorded, sourced to that task at its commit', async () => {
    const { id: earlier, turn } = await firstTurn({});
    const recorded = await api('POST', `/tasks/${earlier}/knowledge`, { body: { statement: 'The build needs make 4.', paths: ['src'] } });
    expect(recorded.status).toBe(201);
    const k = KnowledgeSchema.parse(recorded.json);
    expect(k).toMatchObject({ kind: 'task-summary', author: 'api:acme', source: { uri: `groundwork:task/${earlier}`, revision: turn.commit }, paths: ['src'] });
    const bad = await api('POST', `/tasks/${earlier}/knowledge`, { body: { statement: 'x', source: { uri: 'https://elsewhere.test/' } } });
    expect(bad.status).toBe(400);

    const later = memory((await firstTurn({ cwd: 'src/app' })).turn);
    expect(later.entries.map((e) => [e.title, e.source])).toEqual([[`task-summary ${k.id}`, { uri: `groundwork:task/${earlier}`, revision: turn.commit }]]);
    expect(section(later.content, k.id)).toContain(`source="groundwork:task/${earlier}"`);
  });

  it('is empty, with no reason, when the repository has no knowledge', async () => {
    const { turn } = await firstTurn({});
    expect(memory(turn).outcome).toMatchObject({ outcome: 'empty', tokens: 0 });
    expect(memory(turn).outcome?.reason).toBeUndefined();
  });
});

import { describe, expect, inject, it } from 'vitest';
import type { AssembledTurn } from '../../src/context/turn-schema.ts';
import { TaskDescriptionSchema } from '../../src/tasks/task-results.ts';
import { api } from '../support/api.ts';
import { firstTurn } from '../support/first-turn.ts';

const repo = (name: string) => `http://127.0.0.1:${inject('gitHttpPort')}/${name}.git`;
const fixtures = () => inject('gitHttpFixtures');


const user = (turn: AssembledTurn) => turn.messages.find((message) => message.role === 'user')?.content ?? '';
/** What rules and skills read from the repository (the system provider's pin and inventory, and earlier tasks, aside). */
const repositoryEntries = (turn: AssembledTurn) => turn.entries.filter((entry) => entry.category !== 'system' && entry.provider !== 'history');
const outcome = (turn: AssembledTurn, name: string) => turn.providers.find((provider) => provider.name === name);

describe('provider settings through the Worker, the Task object and a git remote', () => {
  it('finds skills kept in .opencode/skills with no settings at all', async () => {
    const { turn } = await firstTurn({ repo: repo('opencode'), request: 'Ship the next version with $release.' });
    expect(turn.commit).toBe(fixtures().opencode.head);
    expect(outcome(turn, 'skills')).toMatchObject({ outcome: 'included' });
    expect(user(turn)).toContain('- release: Cut a release of the worker. (.opencode/skills/release/SKILL.md)');
    expect(repositoryEntries(turn).map((entry) => entry.title)).toEqual(['AGENTS.md', 'Skills index', 'Selected skill: release']);
    expect(turn.settings?.layers.map((layer) => layer.status)).toEqual(['none', 'none', 'none']);
  });

  it("follows the repository's .groundwork.yml at the pinned commit, and says what it changed", async () => {
    const { turn } = await firstTurn({ repo: repo('configured'), request: 'Speed up the build.' });
    const head = fixtures().configured.head;
    expect(repositoryEntries(turn).map((entry) => [entry.title, entry.source.revision])).toEqual([
      ['GEMINI.md', head],
      ['Skills index', head],
    ]);
    expect(user(turn)).toContain('Prefer small diffs.');
    expect(user(turn)).toContain('- bench: Run the benchmarks.');
    expect(user(turn)).not.toContain('lint');
    expect(outcome(turn, 'rules')?.reason).toBe('settings: filenames=["GEMINI.md"] (.groundwork.yml)');
    expect(outcome(turn, 'skills')?.reason).toBe('settings: roots=["tools/skills/*"] (.groundwork.yml)');
    expect(turn.settings?.layers[1]).toEqual({ layer: 'repository', status: 'applied', source: `.groundwork.yml@${head}` });
  });

  it("lets the task's providers take precedence over the repository's, and keeps them with the task", async () => {
    const providers = { skills: { roots: ['.agents/skills/*'] } };
    const { id, turn } = await firstTurn({ repo: repo('configured'), request: 'Tidy up.', providers });
    expect(user(turn)).toContain('- lint: Lint the code.');
    expect(user(turn)).not.toContain('- bench:');
    expect(outcome(turn, 'skills')?.reason).toBe('settings: roots=[".agents/skills/*"] (task)');
    expect(outcome(turn, 'rules')?.reason).toBe('settings: filenames=["GEMINI.md"] (.groundwork.yml)');
    const task = TaskDescriptionSchema.parse((await api('GET', `/tasks/${id}`)).json);
    expect(task.request.providers).toEqual(providers);
  });

  it('reads no settings file for an untrusted task', async () => {
    const { turn } = await firstTurn({ repo: repo('configured'), request: 'Summarise.', trusted: false });
    expect(turn.settings?.layers[1]).toEqual({ layer: 'repository', status: 'not-read', reason: 'task is untrusted: repo:read is withheld' });
    expect(repositoryEntries(turn)).toEqual([]);
    expect(outcome(turn, 'rules')).toMatchObject({ outcome: 'capability-gated' });
  });
});

import { describe, expect, inject, it } from 'vitest';
import { AssembledTurnSchema } from '../../src/context/turn-schema.ts';
import { api, settled, waitForTask } from '../support/api.ts';

const base = () => `http://127.0.0.1:${inject('gitHttpPort')}`;
const deep = () => inject('gitHttpFixtures').deep;

describe('one awkward entry never costs a provider its other entries', () => {
  it('keeps the root AGENTS.md and titles a rules file under a path longer than a title by its tail', async () => {
    const { cwd, head } = deep();
    const deepPath = `${cwd}/AGENTS.md`;
    expect(deepPath.length).toBeGreaterThan(200);
    const created = await api('POST', '/tasks', { body: { repo: `${base()}/deep.git`, request: 'Follow the rules.', cwd } });
    const id = String(created.json['id']);
    expect((await waitForTask(id, settled))['status']).toBe('ready');

    const turn = AssembledTurnSchema.parse((await api('GET', `/tasks/${id}/turns/0`)).json);
    const rules = turn.providers.find((provider) => provider.name === 'rules');
    expect(rules).toMatchObject({ outcome: 'included' });
    expect(rules?.reason).toBeUndefined();
    const entries = turn.entries.filter((entry) => entry.provider === 'rules');
    expect(entries.map((entry) => entry.source.path)).toEqual(['AGENTS.md', deepPath]);
    expect(entries.map((entry) => entry.source.revision)).toEqual([head, head]);
    const title = entries[1]?.title ?? '';
    expect(title).toHaveLength(200);
    expect(title).toMatch(/^…/);
    expect(deepPath.endsWith(title.slice(1))).toBe(true);
    const user = turn.messages.find((message) => message.role === 'user')?.content ?? '';
    expect(user).toContain('Root rules: keep changes small.');
    expect(user).toContain('Deep rules: mind the long path.');
    expect(user).toContain(`source="${deepPath}@${head}"`);
  });
});

/**
 * @module providers/host/provider
 * Facts the host stated when it created the task (`facts` on `POST /tasks`, see
 * context/host-facts): runtime versions, an available devbox, the CI system in use. Category
 * `system`, first turn, nothing required: the facts arrive with the task view.
 *
 * One entry per fact, in the order the host gave them, each with the host's source and the
 * freshness it declared (`snapshot` or `volatile`). They are `task`-stable (another task on the
 * same commit may have other facts) and rendered like every section, so a fact that looks like a
 * wrapper or an instruction is only text; the authority notice says host facts are evidence.
 */
import { defineProvider, type Provider } from '../../context/provider.ts';
import { clipTitle } from '../../context/title.ts';
import type { Built } from '../../lib/lazy-schema.ts';
import { type HostConfigSchema, hostSettings } from './settings.ts';

export function createHostProvider(): Provider<Built<typeof HostConfigSchema>> {
  return defineProvider({
    ...hostSettings(),
    requires: [],
    turns: 'first',
    timeoutMs: 1_000,
    missing: {
      subject: 'Facts the host stated about this task’s runtime',
      plural: true,
      claim: 'Do not assume versions, machines or CI the host did not describe; say what you would need to check.',
      failed: 'could not be rendered',
    },
    async run({ task }) {
      const facts = task.facts ?? [];
      if (facts.length === 0) return { entries: [], notes: ['the host stated no facts for this task'] };
      return facts.map((fact) => ({
        title: clipTitle(fact.title),
        body: fact.body,
        source: { uri: fact.source.uri },
        freshness: fact.freshness,
        stability: 'task' as const,
      }));
    },
  });
}

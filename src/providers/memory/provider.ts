/**
 * @module providers/memory/provider
 * The `memory` provider: repository knowledge with its provenance and review date, on the first
 * turn. It reads the task's knowledge scope in one call (the reader arrives with
 * `knowledge:read`), leaves out what is past its review date, ranks the rest (see select.ts),
 * keeps whole objects that fit its budget, and checks the provenance of those it keeps against
 * the task's commit when it also has `repo:read` (optional: without it every entry says
 * "provenance not checked"). What it leaves out is named in the outcome's reason.
 *
 * @example
 * createRegistry([createRulesProvider(), createSkillsProvider(), createMemoryProvider()])
 */
import type { Built } from '../../lib/lazy-schema.ts';
import { defineProvider, type Provider } from '../../context/provider.ts';
import { utcDate } from '../../lib/utc-date.ts';
import { knowledgeEntry, reservedTokens } from './entry.ts';
import { namedPaths } from './named-paths.ts';
import { checkProvenance } from './provenance.ts';
import { selectKnowledge } from './select.ts';
import { type MemoryConfigSchema, memorySettings } from './settings.ts';

/** Ids named in a reason; the rest are counted. */
export const MAX_NAMED_IDS = 20;


export function createMemoryProvider(): Provider<Built<typeof MemoryConfigSchema>> {
  return defineProvider({
    ...memorySettings(),
    requires: ['knowledge:read'],
    uses: ['repo:read'],
    turns: 'first',
    timeoutMs: 10_000,
    async run({ task, config, knowledge, snapshot, source, budget, signal, now }) {
      if (!knowledge) throw new Error('no knowledge reader although knowledge:read was granted');
      const objects = await knowledge.active({ signal });
      const { ranked, expired } = selectKnowledge(objects, { today: utcDate(now()), cwd: task.cwd, named: namedPaths(task.request) });

      const kept: typeof ranked = [];
      const dropped: string[] = [];
      let remaining = budget;
      for (const candidate of ranked) {
        const tokens = reservedTokens(candidate);
        if (tokens > remaining) {
          dropped.push(candidate.id);
          continue;
        }
        kept.push(candidate);
        remaining -= tokens;
      }

      const provenance = await checkProvenance(kept, {
        ...(snapshot ? { snapshot } : {}),
        ...(source ? { source } : {}),
        signal,
        timeoutMs: config.provenanceTimeoutMs,
        maxRevisions: config.maxCitedRevisions,
      });
      const notes = [
        ...(expired.length > 0 ? [`${expired.length} past review date: ${listIds(expired)}`] : []),
        ...(dropped.length > 0 ? [`${dropped.length} left out for memory's budget of ${budget} tokens: ${listIds(dropped)}`] : []),
      ];
      return { entries: kept.map((item, i) => knowledgeEntry(item, provenance[i] ?? { line: 'provenance: not checked' })), notes };
    },
  });
}

function listIds(ids: readonly string[]): string {
  const named = ids.slice(0, MAX_NAMED_IDS).join(', ');
  return ids.length > MAX_NAMED_IDS ? `${named} and ${ids.length - MAX_NAMED_IDS} more` : named;
}

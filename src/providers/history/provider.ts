/**
 * @module providers/history/provider
 * What earlier tasks left behind (category `memory`, first turn, requires `tasks:read`): the
 * most recent earlier tasks of the same tenant on the same repository, those about this task's
 * pull request first, bounded by `maxTasks`. The reader arrives scoped by the host (tenant,
 * repository, created before this task), so a retry of the task is shown the same tasks and
 * another tenant's never. Each becomes one `snapshot` entry (see render.ts).
 *
 * With `knowledge:read` too it names the knowledge each task recorded (active objects whose
 * source is that task), from one read of the scope; without it each entry says why not.
 */
import type { Built } from '../../lib/lazy-schema.ts';
import type { Knowledge, KnowledgeReader } from '../../context/knowledge.ts';
import { defineProvider, type Provider } from '../../context/provider.ts';
import { earlierTaskEntry, type RecordedKnowledge } from './render.ts';
import { type HistoryConfigSchema, historySettings } from './settings.ts';

export function createHistoryProvider(): Provider<Built<typeof HistoryConfigSchema>> {
  return defineProvider({
    ...historySettings(),
    requires: ['tasks:read'],
    uses: ['knowledge:read'],
    turns: 'first',
    timeoutMs: 5_000,
    missing: {
      subject: 'Earlier tasks on this repository',
      plural: true,
      claim: 'Do not say you checked what earlier tasks asked, read or recorded; say it was unavailable.',
    },
    async run({ task, tasks, knowledge, withheld, config, signal }) {
      if (!tasks) throw new Error('no task history reader although tasks:read was granted');
      const earlier = await tasks.earlier({ limit: config.maxTasks, signal });
      if (earlier.length === 0) return { entries: [], notes: ['no earlier tasks of this tenant on this repository'] };
      const { recorded, note } = await recordedKnowledge(knowledge, withheld['knowledge:read'], signal);
      const notes = note === undefined ? [] : [note];
      const context = { commit: task.commit, pullRequest: task.pullRequest?.number, knowledge: recorded };
      return { entries: earlier.map((one) => earlierTaskEntry(one, context)), notes };
    },
  });
}

/** The entries' view of recorded knowledge, and what the outcome's reason should add. */
async function recordedKnowledge(knowledge: KnowledgeReader | undefined, withheld: string | undefined, signal: AbortSignal): Promise<{ recorded: RecordedKnowledge; note?: string }> {
  if (!knowledge) return { recorded: { status: 'unavailable', reason: withheld ?? 'no knowledge store for this task' } };
  let objects: Knowledge[];
  try {
    objects = await knowledge.active({ signal });
  } catch (error) {
    if (signal.aborted) throw error;
    // The entries say only that it failed, so a retry that fails again renders the same bytes.
    const note = `recorded knowledge not shown: ${error instanceof Error ? error.message : String(error)}`;
    return { recorded: { status: 'unavailable', reason: 'the knowledge store could not be read' }, note };
  }
  const byTask = new Map<string, Knowledge[]>();
  for (const object of objects) byTask.set(object.source.uri, [...(byTask.get(object.source.uri) ?? []), object]);
  return { recorded: { status: 'read', byTask } };
}

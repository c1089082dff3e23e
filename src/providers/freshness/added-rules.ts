/**
 * @module providers/freshness/added-rules
 * What a later turn brings when the rule set changed since the model's context was read: the
 * text of every rule file that applies now and did not (added, renamed, newly matched or
 * imported), read at the new head, each once. Once means what later-turn rules mean by it
 * (providers/rules/later-turn): not when an earlier turn's entry has the same blob (the same text
 * under any path, at any commit), which is said in a note. Shares what the notice leaves of the
 * budget evenly, each cut with the visible marker, never dropped silently.
 */
import type { EntryInput } from '../../context/entry.ts';
import type { EarlierEntry } from '../../context/provider.ts';
import { pathTitle } from '../../context/title.ts';
import { truncateToTokens } from '../../context/truncate.ts';
import { short } from '../../freshness/compare.ts';
import type { RuleChange } from '../../freshness/report.ts';
import type { Snapshot } from '../../sources/snapshot.ts';

/** Bytes read of one added rule; more than a fair share of any budget. */
const MAX_RULE_BYTES = 256 * 1024;

const BROUGHT: ReadonlySet<RuleChange['change']> = new Set(['added', 'now-applies', 'renamed']);

export async function addedRules(input: { head: Snapshot; changes: readonly RuleChange[]; history: readonly EarlierEntry[]; budget: number; signal: AbortSignal }): Promise<{ entries: EntryInput[]; notes: string[] }> {
  const { head, signal } = input;
  const given = new Map(input.history.flatMap((entry) => (entry.source.blob === undefined ? [] : [[entry.source.blob, entry] as const])));
  const notes: string[] = [];
  const wanted = input.changes.filter((change) => BROUGHT.has(change.change) && change.currentVerdict === 'applied');
  const reads = await Promise.all(wanted.map((change) => head.read(change.path, { maxBytes: MAX_RULE_BYTES, signal })));
  const texts: Array<{ change: RuleChange; text: string; blob: string; truncated: boolean }> = [];
  reads.forEach((read, i) => {
    const change = wanted[i];
    if (!change) return;
    if (read.status !== 'ok') {
      notes.push(`${change.path} at ${short(head.commit)} could not be read (${read.status === 'failed' || read.status === 'skipped' || read.status === 'invalid-path' ? read.reason : read.status})`);
      return;
    }
    const earlier = given.get(read.blob);
    if (earlier) {
      notes.push(`${change.path} has the same content as ${earlier.source.path ?? earlier.title}, given on turn ${earlier.turn}`);
      return;
    }
    texts.push({ change, text: read.text, blob: read.blob, truncated: read.truncated });
  });
  const share = texts.length > 0 ? Math.floor(input.budget / texts.length) : 0;
  const entries: EntryInput[] = [];
  for (const { change, text, blob, truncated } of texts) {
    const cut = truncateToTokens(text, share, change.path);
    if (!cut) {
      notes.push(`left out ${change.path}: its share of the budget cannot hold even the truncation marker; read it at ${short(head.commit)}`);
      continue;
    }
    entries.push({
      title: pathTitle(change.path),
      body: cut.text,
      source: { uri: head.uri(change.path), path: change.path, revision: head.commit, blob },
      freshness: 'pinned',
      stability: 'task',
      warnings: [`${change.line}`, ...(truncated ? [`${change.path}: read the first ${MAX_RULE_BYTES} bytes`] : [])],
      truncated: cut.truncated,
    });
  }
  return { entries, notes };
}

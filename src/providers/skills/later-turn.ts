/**
 * @module providers/skills/later-turn
 * A later turn's skills: the ones the host asked for by name (or path) for this turn
 * (`moved.skills`, from `POST /tasks/:id/paths`), in full, unless an earlier turn gave them
 * already (the ledger's history names each by its SKILL.md). The index is not given again: turn 0
 * gave it. Nothing asked for, or nothing new: no entries, so the turn appends nothing for skills.
 */
import type { EntryInput } from '../../context/entry.ts';
import type { ProviderRequest, ProviderResult } from '../../context/provider.ts';
import type { Snapshot } from '../../sources/snapshot.ts';
import type { SkillsConfig } from './config.ts';
import { selectedEntry } from './selected-entry.ts';
import { listSelected, readSelected } from './selected-reads.ts';
import { selectSkills } from './select.ts';
import { compareSkills } from './skill-index.ts';
import { loadIndexes } from './task-indexes.ts';

export async function laterTurnSkills(request: ProviderRequest<SkillsConfig>, snapshot: Snapshot): Promise<ProviderResult> {
  const { task, moved, history, cache, config, budget, signal } = request;
  if (moved.skills.length === 0) return { entries: [], notes: [`no skills asked for on turn ${request.turn}`] };
  // The indexes turn 0 read (cached), so a skill found along a focus chain can be asked for too.
  const { shared, focus } = await loadIndexes(cache, snapshot, config, task, signal);
  const sharedPaths = new Set(shared.index.skills.map((skill) => skill.path));
  const all = [...shared.index.skills, ...(focus ? focus.index.skills.filter((skill) => !sharedPaths.has(skill.path)) : [])].sort(compareSkills);
  const files = new Map([...(focus?.files ?? []), ...shared.files]);
  const selection = selectSkills(all, '', moved.skills);
  const notes = [...selection.warnings];
  const given = new Map(history.flatMap((entry) => (entry.category === 'skills' && entry.source.path !== undefined ? [[entry.source.path, entry.turn] as const] : [])));
  const wanted = selection.selected.filter((skill) => {
    const turn = given.get(skill.path);
    if (turn !== undefined) notes.push(`skill ${skill.name} (${skill.path}) was given on turn ${turn}`);
    return turn === undefined;
  });
  if (wanted.length === 0) return { entries: [], notes };
  const share = Math.min(config.maxSelectedTokens, Math.floor(budget / wanted.length));
  const [reads, listings] = await Promise.all([readSelected(snapshot, wanted, files, config, signal), listSelected(snapshot, wanted, config, signal)]);
  const entries: EntryInput[] = [];
  reads.forEach(([skill, file], i) => {
    if (typeof file === 'string') {
      notes.push(`selected skill ${skill.name}: ${skill.path} ${file}`);
      return;
    }
    const listing = listings[i];
    const bundled = listing ? { listing, maxFiles: config.maxBundledFiles, maxDepth: config.maxBundledDepth } : undefined;
    const made = selectedEntry(snapshot, skill, file, { maxBytes: config.maxSkillBytes, maxTokens: share, ...(bundled ? { bundled } : {}) });
    if (made.ok) entries.push(made.entry);
    else notes.push(made.warning);
  });
  return { entries, notes };
}

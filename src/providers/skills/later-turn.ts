/**
 * @module providers/skills/later-turn
 * A later turn's skills: the ones the host asked for by name (or path) for this turn
 * (`moved.skills`, from `POST /tasks/:id/paths`), in full, unless an earlier turn gave them
 * already (the ledger's history names each by its SKILL.md). The index is not given again: turn 0
 * gave it. Nothing asked for, or nothing new: no entries, so the turn appends nothing for skills.
 */
import type { ProviderRequest, ProviderResult } from '../../context/provider.ts';
import type { Snapshot } from '../../sources/snapshot.ts';
import type { SkillsConfig } from './config.ts';
import { selectedEntries } from './selected-reads.ts';
import { selectSkills } from './select.ts';
import { loadIndexes, mergeIndexes } from './task-indexes.ts';

export async function laterTurnSkills(request: ProviderRequest<SkillsConfig>, snapshot: Snapshot): Promise<ProviderResult> {
  const { task, moved, history, cache, config, budget, signal } = request;
  if (moved.skills.length === 0) return { entries: [], notes: [`no skills asked for on turn ${request.turn}`] };
  // The indexes turn 0 read (cached), so a skill found along a focus chain can be asked for too.
  const { shared, focus } = await loadIndexes(cache, snapshot, config, task, signal);
  const { all, files } = mergeIndexes(shared, focus);
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
  const { entries, warnings } = await selectedEntries(snapshot, wanted, files, config, share, signal);
  return { entries, notes: [...notes, ...warnings] };
}

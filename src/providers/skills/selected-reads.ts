/**
 * @module providers/skills/selected-reads
 * The selected skills' entries (turn 0's and a later turn's), made from each SKILL.md (from the
 * index's own reads when it was just built) and the listing of the files bundled beside it.
 */
import type { EntryInput } from '../../context/entry.ts';
import type { Snapshot } from '../../sources/snapshot.ts';
import { listBundledFiles, type BundledListing } from './bundled-files.ts';
import type { SkillsConfig } from './config.ts';
import { describeUnreadable } from './load-index.ts';
import { selectedEntry, type SkillFile } from './selected-entry.ts';
import type { Skill } from './skill-index.ts';

/**
 * One entry per selected skill, each at most `maxTokens`; a skill that could not be read or made
 * into an entry is a warning instead.
 */
export async function selectedEntries(
  snapshot: Snapshot,
  skills: readonly Skill[],
  files: ReadonlyMap<string, SkillFile>,
  config: SkillsConfig,
  maxTokens: number,
  signal: AbortSignal,
): Promise<{ entries: EntryInput[]; warnings: string[] }> {
  const [reads, listings] = await Promise.all([readSelected(snapshot, skills, files, config, signal), listSelected(snapshot, skills, config, signal)]);
  const entries: EntryInput[] = [];
  const warnings: string[] = [];
  reads.forEach(([skill, file], i) => {
    if (typeof file === 'string') {
      warnings.push(`selected skill ${skill.name}: ${skill.path} ${file}`);
      return;
    }
    const listing = listings[i];
    const bundled = listing ? { listing, maxFiles: config.maxBundledFiles, maxDepth: config.maxBundledDepth } : undefined;
    const made = selectedEntry(snapshot, skill, file, { maxBytes: config.maxSkillBytes, maxTokens, ...(bundled ? { bundled } : {}) });
    if (made.ok) entries.push(made.entry);
    else warnings.push(made.warning);
  });
  return { entries, warnings };
}

/** Bodies of the selected skills, from this run's reads when the index was just built, else read now. */
async function readSelected(
  snapshot: Snapshot,
  skills: readonly Skill[],
  files: ReadonlyMap<string, SkillFile>,
  config: SkillsConfig,
  signal: AbortSignal,
): Promise<Array<[Skill, SkillFile | string]>> {
  return Promise.all(
    skills.map(async (skill): Promise<[Skill, SkillFile | string]> => {
      const known = files.get(skill.path);
      if (known) return [skill, known];
      // The index already names the skill; its body is what a source short of API budget may skip.
      const read = await snapshot.read(skill.path, { maxBytes: config.maxSkillBytes, signal, optional: true });
      if (read.status === 'failed') throw new Error(`could not read selected skill ${skill.path}: ${read.reason}`);
      return [skill, read.status === 'ok' ? read : describeUnreadable(read)];
    }),
  );
}

/** What each selected skill bundles besides its SKILL.md; none when `maxBundledFiles` is 0. */
async function listSelected(snapshot: Snapshot, skills: readonly Skill[], config: SkillsConfig, signal: AbortSignal): Promise<Array<BundledListing | undefined>> {
  if (config.maxBundledFiles === 0) return skills.map(() => undefined);
  const limits = { maxFiles: config.maxBundledFiles, maxDepth: config.maxBundledDepth };
  return Promise.all(skills.map((skill) => listBundledFiles(snapshot, skill.path, limits, signal)));
}

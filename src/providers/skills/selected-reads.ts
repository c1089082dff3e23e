/**
 * @module providers/skills/selected-reads
 * What a selected skill's entry is made from: its SKILL.md (from the index's own reads when it was
 * just built) and the listing of the files bundled beside it.
 */
import type { Snapshot } from '../../sources/snapshot.ts';
import { listBundledFiles, type BundledListing } from './bundled-files.ts';
import type { SkillsConfig } from './config.ts';
import { describeUnreadable } from './load-index.ts';
import type { SkillFile } from './selected-entry.ts';
import type { Skill } from './skill-index.ts';

/** Bodies of the selected skills, from this run's reads when the index was just built, else read now. */
export async function readSelected(
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
export async function listSelected(snapshot: Snapshot, skills: readonly Skill[], config: SkillsConfig, signal: AbortSignal): Promise<Array<BundledListing | undefined>> {
  if (config.maxBundledFiles === 0) return skills.map(() => undefined);
  const limits = { maxFiles: config.maxBundledFiles, maxDepth: config.maxBundledDepth };
  return Promise.all(skills.map((skill) => listBundledFiles(snapshot, skill.path, limits, signal)));
}

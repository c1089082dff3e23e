/**
 * @module providers/skills/read-skill
 * One skill read on request (the MCP `read_skill` tool): found in the commit's skills index the
 * way a task's explicit selection finds it (a name, or a path when two skills share one), its
 * whole SKILL.md up to a generous cap, and the files bundled in its directory. Reads the
 * snapshot only; the same commit and config give the same answer.
 */
import type { Snapshot } from '../../sources/snapshot.ts';
import { listBundledFiles, renderBundledFiles, type BundledFile } from './bundled-files.ts';
import type { SkillsConfig } from './config.ts';
import { describeUnreadable, loadSkillIndex, type IndexScope } from './load-index.ts';
import { selectSkills } from './select.ts';

/** A SKILL.md longer than this is cut (and says so): the index's own cap is for a summary, this one for the whole body. */
export const READ_SKILL_MAX_BYTES = 512 * 1024;

export type SkillRead =
  | {
      ok: true;
      name: string;
      description: string;
      path: string;
      commit: string;
      blob: string;
      text: string;
      truncated: boolean;
      files: BundledFile[];
      /** The bundled files as the skills provider lists them, for the model. */
      filesText: string | undefined;
    }
  | { ok: false; reason: string };

/** `scope` is the one the task's index was built with (its configured roots and its working directory's chain). */
export async function readSkill(snapshot: Snapshot, config: SkillsConfig, scope: IndexScope, name: string, signal: AbortSignal): Promise<SkillRead> {
  const { index } = await loadSkillIndex(snapshot, config, scope, signal);
  const selection = selectSkills(index.skills, '', [name]);
  const [skill] = selection.selected;
  if (!skill) {
    const known = index.skills.length === 0 ? 'the index is empty' : `the index has ${index.skills.map((one) => one.name).slice(0, 20).join(', ')}${index.skills.length > 20 ? ', …' : ''}`;
    return { ok: false, reason: `${selection.warnings[0] ?? `no skill ${name}`} at ${snapshot.commit.slice(0, 12)} (${known})` };
  }
  const [read, listing] = await Promise.all([
    snapshot.read(skill.path, { maxBytes: READ_SKILL_MAX_BYTES, signal }),
    listBundledFiles(snapshot, skill.path, { maxFiles: Math.max(config.maxBundledFiles, 1), maxDepth: config.maxBundledDepth }, signal),
  ]);
  if (read.status === 'failed') throw new Error(`could not read ${skill.path}: ${read.reason}`);
  if (read.status !== 'ok') return { ok: false, reason: `${skill.path} ${describeUnreadable(read)}` };
  return {
    ok: true,
    name: skill.name,
    description: skill.description,
    path: skill.path,
    commit: snapshot.commit,
    blob: read.blob,
    text: read.text,
    truncated: read.truncated,
    files: listing.files,
    filesText: renderBundledFiles(listing, Math.max(config.maxBundledFiles, 1), config.maxBundledDepth),
  };
}

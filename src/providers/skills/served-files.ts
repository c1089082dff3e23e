/**
 * @module providers/skills/served-files
 * Which file of a skill catalog (skill-catalog) a repository path names: a skill's SKILL.md is
 * addressed as `SKILL.md` whatever its file's case (`skill.md` is accepted in repositories), and
 * only the files a served skill's manifest lists are files at all. Types only besides, so the MCP
 * side of the Worker can map URIs without loading the catalog's code.
 */
import type { SkillManifest } from './skill-manifest.ts';

/** The path a skill's SKILL.md is addressed by, whatever its file's case (`skill.md` is accepted in repositories). */
export const skillMdPath = (manifest: SkillManifest): string => `${manifest.dir}/SKILL.md`;

/** The skill a repository path is a file of, and the path to read for it; undefined when no skill serves it. */
export function servedFile(manifests: readonly SkillManifest[], path: string): { manifest: SkillManifest; read: string } | undefined {
  for (const manifest of manifests) {
    if (path === skillMdPath(manifest)) return { manifest, read: manifest.skillFile };
    if (manifest.files.some((file) => file.path === path && file.path !== manifest.skillFile)) return { manifest, read: path };
  }
  return undefined;
}


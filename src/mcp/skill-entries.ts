/**
 * @module mcp/skill-entries
 * The skills extension's wire shapes (ext-skills skills.mdx, "Skill Entries": `Skill`,
 * `SkillResource`) made from a skill's manifest (providers/skills/skill-manifest), and what a
 * backend answers for `skills/list`, `skills/get` and a `resources/read` of a `skill://` file. A
 * file is served as text when its bytes are UTF-8 (a byte order mark kept, so the text hashes to
 * the entry's digest), otherwise base64 as a blob.
 */
import { skillMdPath } from '../providers/skills/served-files.ts';
import type { SkillManifest } from '../providers/skills/skill-manifest.ts';
import type { ResourceAnswer } from './backend.ts';
import { mimeTypeOf } from './mime-types.ts';
import { skillUri } from './skill-uris.ts';

export interface SkillResourceEntry {
  uri: string;
  digest: string;
  size: number;
}

export interface SkillEntry {
  uri: string;
  frontmatter: SkillManifest['frontmatter'];
  resources: SkillResourceEntry[];
}

export type SkillListAnswer =
  | {
      ok: true;
      skills: SkillEntry[];
      nextCursor?: string;
      /** The index's validation warnings and why any skill of it is not served, each naming its file. */
      warnings: string[];
      /** How long the listing may be taken as current (0: it follows the caller's newest tasks, or a working tree). */
      ttlMs: number;
    }
  | { ok: false; message: string };

/** `failed`: the skill may be served, but its entry could not be read now. */
export type SkillGetAnswer = { ok: true; skill: SkillEntry; ttlMs: number } | { ok: false; message: string; failed?: true };

/** The skills extension's side of a backend. */
export interface SkillsBackend {
  listSkills(cursor: string | undefined): Promise<SkillListAnswer>;
  /** `uri` names a SKILL.md; any other is "no skill served at" it. */
  getSkill(uri: string): Promise<SkillGetAnswer>;
  readSkillFile(uri: string): Promise<ResourceAnswer>;
}

export function skillEntry(taskId: string | undefined, manifest: SkillManifest): SkillEntry {
  return {
    uri: skillUri(taskId, skillMdPath(manifest)),
    frontmatter: manifest.frontmatter,
    resources: manifest.files.map((file) => ({ uri: skillUri(taskId, file.path === manifest.skillFile ? skillMdPath(manifest) : file.path), digest: file.digest, size: file.size })),
  };
}

export function fileAnswer(path: string, bytes: Uint8Array, meta?: Record<string, unknown>): ResourceAnswer {
  let text: string | undefined;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    text = undefined;
  }
  const mimeType = mimeTypeOf(path, text !== undefined);
  const extra = meta ? { meta } : {};
  return text !== undefined ? { ok: true, text, mimeType, ...extra } : { ok: true, blob: toBase64(bytes), mimeType, ...extra };
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  const CHUNK = 0x8000;
  for (let i = 0; i < bytes.length; i += CHUNK) binary += String.fromCharCode(...bytes.subarray(i, i + CHUNK));
  return btoa(binary);
}

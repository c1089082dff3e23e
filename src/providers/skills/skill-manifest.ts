/**
 * @module providers/skills/skill-manifest
 * One skill of a commit's index as the MCP skills extension serves it (`io.modelcontextprotocol/
 * skills`, ext-skills specification/stable/skills.mdx, "Skill Entries"): its SKILL.md frontmatter
 * as a JSON object, and every file of its directory with the SHA-256 of its raw bytes and their
 * size. Git's blob ids are SHA-1 over a header and the bytes, so they are no such digest: each
 * file is read and hashed.
 *
 * A skill is served only when it conforms as the extension requires ("Skill Format", "Resource
 * Mapping"): a directory of its own whose name is the frontmatter's `name` exactly, a non-empty
 * `description`, at most 512 files and 16 MiB ("Limits"). Any other reason not to serve it is a
 * warning naming the file, never a silent gap. Reads only the snapshot; the same commit gives the
 * same manifest.
 */
import { parseYaml12 } from '../../lib/yaml-1.2.ts';
import { sha256Hex } from '../../lib/sha256.ts';
import { splitFrontmatter } from '../frontmatter.ts';
import type { Snapshot, TreeEntry } from '../../sources/snapshot.ts';
import type { Skill } from './skill-index.ts';

/** "Resources per skill" and "Total file size per skill" of the extension's Limits. */
export const MAX_SKILL_FILES = 512;
export const MAX_SKILL_TOTAL_BYTES = 16 * 1024 * 1024;
/** Files read at once: enough to overlap a remote's latency, few enough for a Worker's subrequests. */
const PARALLEL_READS = 8;

export interface ManifestFile {
  /** From the repository root. */
  path: string;
  /** `sha256:` and 64 lowercase hex digits, over the raw bytes. */
  digest: string;
  size: number;
}

export interface SkillManifest {
  name: string;
  /** The skill's directory (its SKILL.md's parent). */
  dir: string;
  /** Path of its SKILL.md (or skill.md). */
  skillFile: string;
  /** The frontmatter as YAML 1.2's core schema reads it, as JSON; `name` and `description` are text. */
  frontmatter: { name: string; description: string } & Record<string, unknown>;
  /** Every file of the directory, SKILL.md first, then by path. */
  files: ManifestFile[];
  /** What was left out (a submodule is another repository's tree), each naming the path. */
  warnings: string[];
}

export type ManifestResult = { ok: true; manifest: SkillManifest } | { ok: false; reason: string };

export async function skillManifest(snapshot: Snapshot, skill: Skill, signal: AbortSignal): Promise<ManifestResult> {
  const readBytes = snapshot.readBytes?.bind(snapshot);
  if (!readBytes) return { ok: false, reason: `${skill.path}: not served over MCP: this source cannot read files byte for byte` };
  const cut = skill.path.lastIndexOf('/');
  const dir = cut < 0 ? '' : skill.path.slice(0, cut);
  const refuse = (why: string): ManifestResult => ({ ok: false, reason: `${skill.path}: not served over MCP: ${why}` });
  if (dir === '') return refuse('a skill at the repository root has no directory of its own to address it by');

  const walked = await walk(snapshot, dir, signal);
  if (!walked.ok) return refuse(walked.reason);
  if (walked.files.length > MAX_SKILL_FILES) return refuse(`its directory holds more than ${MAX_SKILL_FILES} files, the extension's limit per skill`);

  const files: ManifestFile[] = [];
  let total = 0;
  let skillText: string | undefined;
  for (let start = 0; start < walked.files.length; start += PARALLEL_READS) {
    const batch = walked.files.slice(start, start + PARALLEL_READS);
    const reads = await Promise.all(batch.map((path) => readBytes(path, { maxBytes: MAX_SKILL_TOTAL_BYTES, signal })));
    for (const read of reads) {
      if (read.status === 'failed') throw new Error(`could not read ${read.path}: ${read.reason}`);
      if (read.status === 'too-large') return refuse(`${read.path} is ${read.size} bytes; a skill's files may total ${MAX_SKILL_TOTAL_BYTES}`);
      if (read.status !== 'ok') return refuse(`${read.path} cannot be served (${'reason' in read ? read.reason : read.status})`);
      total += read.bytes.byteLength;
      if (total > MAX_SKILL_TOTAL_BYTES) return refuse(`its files total more than ${MAX_SKILL_TOTAL_BYTES} bytes, the extension's limit per skill`);
      files.push({ path: read.path, digest: `sha256:${await sha256Hex(new Uint8Array(read.bytes))}`, size: read.bytes.byteLength });
      if (read.path === skill.path) skillText = decode(read.bytes);
    }
  }
  if (skillText === undefined) return refuse('its SKILL.md is not UTF-8 text');
  const frontmatter = frontmatterOf(skillText);
  if (!frontmatter.ok) return refuse(frontmatter.reason);
  const name = dir.slice(dir.lastIndexOf('/') + 1);
  if (frontmatter.value.name !== name) return refuse(`its frontmatter name ${JSON.stringify(frontmatter.value.name)} is not its directory's name ${JSON.stringify(name)}, which its skill:// URI ends in`);

  files.sort((a, b) => (a.path === skill.path ? -1 : b.path === skill.path ? 1 : a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { ok: true, manifest: { name, dir, skillFile: skill.path, frontmatter: frontmatter.value, files, warnings: walked.warnings } };
}

/** Every file under `dir` (symlinks included: served as what they point to), breadth first. */
async function walk(snapshot: Snapshot, dir: string, signal: AbortSignal): Promise<{ ok: true; files: string[]; warnings: string[] } | { ok: false; reason: string }> {
  const files: string[] = [];
  const warnings: string[] = [];
  let level = [dir];
  while (level.length > 0) {
    signal.throwIfAborted();
    const listings = await Promise.all(level.map((path) => snapshot.list(path, { signal })));
    const next: string[] = [];
    for (const listing of listings) {
      if (listing.status === 'failed') throw new Error(`could not list ${listing.path}: ${listing.reason}`);
      if (listing.status !== 'ok') return { ok: false, reason: `${listing.path} could not be listed (${listing.status})` };
      for (const entry of listing.entries) place(entry, files, next, warnings);
    }
    // Past the limit the skill is refused anyway: no need to list the rest.
    if (files.length > MAX_SKILL_FILES) break;
    level = next.sort();
  }
  return { ok: true, files, warnings };
}

function place(entry: TreeEntry, files: string[], dirs: string[], warnings: string[]): void {
  if (entry.kind === 'file' || entry.kind === 'symlink') files.push(entry.path);
  else if (entry.kind === 'dir') dirs.push(entry.path);
  else warnings.push(`${entry.path}: a submodule, whose files are another repository's, is not part of the skill served over MCP`);
}

function decode(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return undefined;
  }
}

type Frontmatter = SkillManifest['frontmatter'];

/** Core-schema YAML, as a host parsing SKILL.md to compare with the entry most likely reads it. */
function frontmatterOf(text: string): { ok: true; value: Frontmatter } | { ok: false; reason: string } {
  const split = splitFrontmatter(text);
  if (split.kind !== 'split') return { ok: false, reason: 'its SKILL.md has no closed YAML frontmatter' };
  const parsed = parseYaml12(split.yaml, { schema: 'core', maxAliasNodes: 50 });
  if (!parsed.ok) return { ok: false, reason: `its frontmatter is not valid YAML: ${parsed.message}` };
  // Through JSON, so what the entry carries is exactly what a client receives.
  const value: unknown = JSON.parse(JSON.stringify(parsed.data ?? null));
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, reason: 'its frontmatter is not a mapping' };
  const fields = value as Record<string, unknown>;
  const { name, description } = fields;
  if (typeof name !== 'string') return { ok: false, reason: 'its frontmatter name is not text' };
  if (typeof description !== 'string' || description.trim() === '') return { ok: false, reason: 'its frontmatter has no description' };
  // The Agent Skills specification's `metadata` maps text to text; the SDK's skills client refuses an entry whose does not.
  const { metadata } = fields;
  if (metadata !== undefined && (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata) || Object.values(metadata).some((value) => typeof value !== 'string'))) {
    return { ok: false, reason: 'its frontmatter metadata must map names to text (quote numbers and booleans: version: "1.0")' };
  }
  return { ok: true, value: { ...fields, name, description } };
}

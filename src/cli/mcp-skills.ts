/**
 * @module cli/mcp-skills
 * The skills extension of `groundwork mcp`: the skills of the working repository (the one the
 * process runs in) at its HEAD commit, addressed `skill://<path>` (mcp/skill-uris), found as the
 * skills provider finds them for a task standing where the process stands (the configured roots
 * and that directory's chain), in the index's order. HEAD moves as the user commits, so every
 * request looks again and nothing is cached beyond the commit it read (`ttlMs` 0). Outside a
 * repository the listing is empty and says why.
 */
import { SKILLS_DEFAULTS } from '../providers/skills/config.ts';
import { servedFile, skillMdPath } from '../providers/skills/served-files.ts';
import { skillCatalog, type SkillCatalog } from '../providers/skills/skill-catalog.ts';
import { MAX_SKILL_TOTAL_BYTES } from '../providers/skills/skill-manifest.ts';
import type { Snapshot } from '../sources/snapshot.ts';
import { fileAnswer, skillEntry, type SkillsBackend } from '../mcp/skill-entries.ts';
import { parseSkillUri } from '../mcp/skill-uris.ts';
import { openLocalRepository } from './open-local.ts';

/** Reading and hashing every file of every skill of a large repository stays well within this. */
const READ_DEADLINE_MS = 60_000;

export interface LocalSkillsOptions {
  /** The repository to serve; the one the process's working directory is in when absent. */
  repo?: string;
}

type Loaded = { ok: true; snapshot: Snapshot; catalog: SkillCatalog } | { ok: false; message: string };

export function localSkillTools(options: LocalSkillsOptions = {}): SkillsBackend {
  let last: { key: string; loaded: Promise<Loaded> } | undefined;

  const load = async (): Promise<Loaded> => {
    const opened = await openLocalRepository({ repo: options.repo, ref: 'HEAD', cwd: undefined });
    if (!opened.ok) return { ok: false, message: `no working repository: ${opened.error}` };
    const key = `${opened.root}\0${opened.commit}\0${opened.cwd}`;
    if (last?.key === key) return last.loaded;
    const snapshot = opened.source.snapshot(opened.commit);
    const scope = opened.cwd === '' ? { configured: true } : { configured: true, chain: { targets: [opened.cwd], label: `the working directory ${opened.cwd}` } };
    const loaded = skillCatalog(undefined, snapshot, SKILLS_DEFAULTS, scope, AbortSignal.timeout(READ_DEADLINE_MS)).then((catalog): Loaded => ({ ok: true, snapshot, catalog }));
    last = { key, loaded };
    // A failed read is not kept: the next request tries again.
    loaded.catch(() => (last?.loaded === loaded ? (last = undefined) : undefined));
    return loaded;
  };

  return {
    async listSkills(cursor) {
      if (cursor !== undefined) return { ok: false, message: `cursor ${JSON.stringify(cursor.slice(0, 80))} was not issued by this server: the working repository's skills are one page` };
      const loaded = await load();
      if (!loaded.ok) return { ok: true, skills: [], warnings: [loaded.message], ttlMs: 0 };
      return { ok: true, skills: loaded.catalog.skills.map((manifest) => skillEntry(undefined, manifest)), warnings: loaded.catalog.warnings, ttlMs: 0 };
    },

    async getSkill(uri) {
      const parsed = parseSkillUri(uri, 'repository');
      if (!parsed.ok) return parsed;
      const loaded = await load();
      if (!loaded.ok) return loaded;
      const manifest = loaded.catalog.skills.find((skill) => skillMdPath(skill) === parsed.path);
      return manifest ? { ok: true, skill: skillEntry(undefined, manifest), ttlMs: 0 } : { ok: false, message: `the working repository serves no skill whose SKILL.md is ${parsed.path} at ${loaded.snapshot.commit}` };
    },

    async readSkillFile(uri) {
      const parsed = parseSkillUri(uri, 'repository');
      if (!parsed.ok) return parsed;
      const loaded = await load();
      if (!loaded.ok) return loaded;
      const served = servedFile(loaded.catalog.skills, parsed.path);
      if (!served) return { ok: false, message: `${parsed.path} is not a file of a skill the working repository serves at ${loaded.snapshot.commit}` };
      const read = await loaded.snapshot.readBytes?.(served.read, { maxBytes: MAX_SKILL_TOTAL_BYTES, signal: AbortSignal.timeout(READ_DEADLINE_MS) });
      if (read?.status !== 'ok') return { ok: false, failed: true, message: `${served.read} at ${loaded.snapshot.commit} could not be read (${read ? read.status : 'this source cannot read bytes'})` };
      return { ...fileAnswer(served.read, read.bytes), ttlMs: 0 };
    },
  };
}

/**
 * @module durable-objects/task-skills
 * A task's skills as the MCP skills extension serves them (`skills/list`, `skills/get`, and
 * `resources/read` of their `skill://` files): the catalog of its commit's skills index, found
 * with the skills settings turn 0 took effect with and the scope `read_skill` uses (the configured
 * roots and the working directory's chain), ranked for the task's request and paths as the index
 * ranks them; and one file of a served skill, byte for byte. Only a trusted task serves repository
 * content, as for every read on request (task-files). Every read is bounded.
 */
import { SkillsConfigSchema } from '../src/providers/skills/config.ts';
import { taskWords } from '../src/providers/skills/rank.ts';
import { rankCatalog, skillCatalog, type SkillCatalog } from '../src/providers/skills/skill-catalog.ts';
import { servedFile } from '../src/providers/skills/served-files.ts';
import { withDeadline } from '../src/lib/deadline.ts';
import type { KeyValueStore } from '../src/sources/key-value-store.ts';
import type { Snapshot } from '../src/sources/snapshot.ts';
import type { SkillCatalogResult, SkillFileResult } from '../src/tasks/task-results.ts';
import type { TaskFileDeps } from './task-files.ts';
import type { TaskRow } from './task-store.ts';
import { MAX_SKILL_TOTAL_BYTES } from '../src/providers/skills/skill-manifest.ts';

/** A first listing reads and hashes every file of every skill; later ones come from the cache. */
export const CATALOG_DEADLINE_MS = 25_000;

export interface TaskSkillDeps extends TaskFileDeps {
  cache?: KeyValueStore;
}

type Opened = { ok: true; commit: string; catalog: (snapshot: Snapshot, signal: AbortSignal) => Promise<SkillCatalog> } | { ok: false; result: { status: 'conflict'; message: string } };

function opened(task: TaskRow, deps: TaskSkillDeps): Opened {
  if (!task.request.trusted) return { ok: false, result: { status: 'conflict', message: 'the task is untrusted: it reads no repository content, so it serves no skills' } };
  if (task.commit_sha === null) return { ok: false, result: { status: 'conflict', message: `the task has not pinned a commit yet (it is ${task.status}); try again once it is ready` } };
  const effective = deps.store.turn(0)?.settings?.providers.find((provider) => provider.name === 'skills');
  if (effective && !effective.enabled) return { ok: false, result: { status: 'conflict', message: 'the skills provider is disabled for this task: it has no skills index' } };
  const parsed = SkillsConfigSchema.safeParse(effective?.config ?? {});
  const config = parsed.success ? parsed.data : SkillsConfigSchema.parse({});
  const cwd = task.request.cwd;
  const scope = cwd === '' ? { configured: true } : { configured: true, chain: { targets: [cwd], label: `the working directory ${cwd}` } };
  return { ok: true, commit: task.commit_sha, catalog: (snapshot, signal) => skillCatalog(deps.cache, snapshot, config, scope, signal) };
}

export async function taskSkillCatalog(task: TaskRow, deps: TaskSkillDeps): Promise<SkillCatalogResult> {
  const at = opened(task, deps);
  if (!at.ok) return at.result;
  try {
    const catalog = await withDeadline(CATALOG_DEADLINE_MS, () => `listing the skills at ${at.commit} did not finish within ${CATALOG_DEADLINE_MS} ms`, async (signal) => {
      const source = await deps.openSource(task.request);
      return at.catalog(source.source.snapshot(at.commit, { signal }), signal);
    });
    const ranked = rankCatalog(catalog, taskWords(task.request.request, [task.request.cwd, ...(task.request.paths ?? [])]));
    return { status: 'ok', commit: at.commit, skills: ranked, warnings: catalog.warnings };
  } catch (error) {
    return { status: 'failed', reason: error instanceof Error ? error.message : String(error) };
  }
}

export async function readTaskSkillFile(task: TaskRow, path: string, deps: TaskSkillDeps): Promise<SkillFileResult> {
  const at = opened(task, deps);
  if (!at.ok) return at.result;
  try {
    return await withDeadline(CATALOG_DEADLINE_MS, () => `reading ${path} at ${at.commit} did not finish within ${CATALOG_DEADLINE_MS} ms`, async (signal): Promise<SkillFileResult> => {
      const snapshot = (await deps.openSource(task.request)).source.snapshot(at.commit, { signal });
      const served = servedFile((await at.catalog(snapshot, signal)).skills, path);
      if (!served) return { status: 'missing', reason: `${path} is not a file of a skill this task serves at ${at.commit}` };
      const read = await snapshot.readBytes?.(served.read, { maxBytes: MAX_SKILL_TOTAL_BYTES, signal });
      if (read?.status !== 'ok') return { status: 'failed', reason: `${served.read} at ${at.commit} could not be read (${read ? read.status : 'this source cannot read bytes'})` };
      return { status: 'ok', path, bytes: new Uint8Array(read.bytes) };
    });
  } catch (error) {
    return { status: 'failed', reason: error instanceof Error ? error.message : String(error) };
  }
}

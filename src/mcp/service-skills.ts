/**
 * @module mcp/service-skills
 * The skills extension on the Worker: the skills of the caller's tasks, each at its task's pinned
 * commit, addressed `skill://<taskId>/<path>` (mcp/skill-uris). `skills/list` pages through the
 * caller's newest ready tasks as `resources/list` offers their turns, newest first, one task's
 * skills per page (ranked for that task); its cursor is the next task's id, and a cursor that
 * names no task of the caller's listing is refused. The Task object reads, ranks and caches
 * (durable-objects/task-skills); another tenant's task is "no skill" here as it is a 404 there.
 */
import { getConfig } from '../env.ts';
import { skillMdPath } from '../providers/skills/served-files.ts';
import { listTenantTasks } from '../tasks/durable-task-index.ts';
import { taskStub } from '../tasks/durable-task-service.ts';
import { SkillCatalogResultSchema, SkillFileResultSchema, type SkillCatalogResult } from '../tasks/task-results.ts';
import { readableTenants } from '../tasks/tenant-grants.ts';
import { PINNED_TTL_MS } from './cache-hints.ts';
import { fileAnswer, skillEntry, type SkillsBackend } from './skill-entries.ts';
import { parseSkillUri } from './skill-uris.ts';
import type { ServiceContext } from './service-tasks.ts';

/** As many of the caller's newest ready tasks as `resources/list` offers. */
const LISTED_TASKS = 20;
/** Tasks one page may look through for skills, so a run of tasks without any cannot make one request read them all. */
const TASKS_PER_PAGE = 3;

export function serviceSkillTools(ctx: ServiceContext): SkillsBackend {
  const config = getConfig(ctx.env);
  const catalogOf = async (taskId: string): Promise<SkillCatalogResult> => {
    const stub = taskStub(ctx.env, taskId);
    return stub ? SkillCatalogResultSchema.parse(await stub.skillCatalog(ctx.tenant)) : { status: 'not-found' };
  };

  return {
    async listSkills(cursor) {
      const page = await listTenantTasks(ctx.env, readableTenants(config.TENANT_GRANTS, ctx.tenant), { limit: LISTED_TASKS, status: 'ready', now: ctx.deps.now() });
      const ids = page.rows.map((row) => row.taskId);
      const start = cursor === undefined ? 0 : ids.indexOf(cursor);
      if (start < 0) return { ok: false, message: `cursor ${JSON.stringify(cursor?.slice(0, 80))} names no task of this token's listing (it may have expired); list again without a cursor` };
      const skills = [];
      const warnings: string[] = [];
      let next = start;
      while (next < ids.length && next - start < TASKS_PER_PAGE && skills.length === 0) {
        const taskId = ids[next++] ?? '';
        const catalog = await catalogOf(taskId);
        if (catalog.status === 'ok') {
          skills.push(...catalog.skills.map((manifest) => skillEntry(taskId, manifest)));
          warnings.push(...catalog.warnings.map((warning) => `task ${taskId.slice(0, 12)}: ${warning}`));
        } else if (catalog.status !== 'not-found') warnings.push(`task ${taskId.slice(0, 12)}: skills not listed: ${catalog.status === 'conflict' ? catalog.message : catalog.reason}`);
      }
      return { ok: true, skills, warnings, ttlMs: 0, ...(next < ids.length ? { nextCursor: ids[next] } : {}) };
    },

    async getSkill(uri) {
      const parsed = parseSkillUri(uri, 'task');
      if (!parsed.ok) return parsed;
      const catalog = await catalogOf(parsed.taskId ?? '');
      if (catalog.status === 'failed') return { ok: false, failed: true, message: `the skills of task ${parsed.taskId} could not be read: ${catalog.reason}` };
      if (catalog.status !== 'ok') return { ok: false, message: catalog.status === 'not-found' ? 'no task of this token has that id' : catalog.message };
      const manifest = catalog.skills.find((skill) => skillMdPath(skill) === parsed.path);
      if (!manifest) return { ok: false, message: `the task serves no skill whose SKILL.md is ${parsed.path} at ${catalog.commit}` };
      return { ok: true, skill: skillEntry(parsed.taskId, manifest), ttlMs: PINNED_TTL_MS };
    },

    async readSkillFile(uri) {
      const parsed = parseSkillUri(uri, 'task');
      if (!parsed.ok) return parsed;
      const stub = taskStub(ctx.env, parsed.taskId ?? '');
      const read = stub ? SkillFileResultSchema.parse(await stub.readSkillFile(ctx.tenant, parsed.path)) : { status: 'not-found' as const };
      if (read.status === 'not-found') return { ok: false, message: `no task of this token has the id in ${uri.slice(0, 200)}` };
      if (read.status === 'failed') return { ok: false, failed: true, message: `${uri.slice(0, 200)} could not be read: ${read.reason}` };
      if (read.status !== 'ok') return { ok: false, message: `${uri.slice(0, 200)}: ${read.status === 'conflict' ? read.message : read.reason}` };
      return fileAnswer(read.path, read.bytes);
    },
  };
}


/**
 * @module mcp/service-skills
 * The skills extension on the Worker: the skills of the caller's tasks, each at its task's pinned
 * commit, addressed `skill://<taskId>/<path>` (mcp/skill-uris). `skills/list` pages through the
 * caller's newest ready tasks as `resources/list` offers their turns, newest first, one task's
 * skills per page (ranked for that task); its cursor is the next task's id, and a cursor that
 * names no task of the caller's listing is refused. The Task object reads, ranks and caches
 * (durable-objects/task-skills). Who may read a task is auth/'s answer, as for the task tools: another
 * tenant's task is "no skill" here as it is a 404 there, and a person sees the tasks of the
 * repositories GitHub says they can read.
 */
import { readableTaskPage } from '../auth/readable-tasks.ts';
import { accessDeps, taskAccess } from '../auth/task-access.ts';
import type { TaskCaller } from '../auth/task-caller.ts';
import { skillMdPath } from '../providers/skills/served-files.ts';
import { taskStub } from '../tasks/durable-task-service.ts';
import { SkillCatalogResultSchema, SkillFileResultSchema, type SkillCatalogResult } from '../tasks/task-results.ts';
import { PINNED_TTL_MS } from './cache-hints.ts';
import { fileAnswer, skillEntry, type SkillsBackend } from './skill-entries.ts';
import { parseSkillUri } from './skill-uris.ts';
import type { ServiceContext } from './service-tasks.ts';

/** As many of the caller's newest ready tasks as `resources/list` offers. */
const LISTED_TASKS = 20;
/** Tasks one page may look through for skills, so a run of tasks without any cannot make one request read them all. */
const TASKS_PER_PAGE = 3;

export function serviceSkillTools(ctx: ServiceContext): SkillsBackend {
  /** The task's object and who the caller is to it; a task the caller may not read is none. */
  const open = async (taskId: string): Promise<{ stub: NonNullable<ReturnType<typeof taskStub>>; caller: TaskCaller } | { failed: string } | undefined> => {
    const stub = taskStub(ctx.env, taskId);
    const access = await taskAccess(ctx.identity, stub, accessDeps(ctx.env));
    if (!stub || (!access.ok && access.kind === 'not-found')) return undefined;
    return access.ok ? { stub, caller: access.caller } : { failed: access.message };
  };
  const catalogOf = async (taskId: string): Promise<SkillCatalogResult> => {
    const opened = await open(taskId);
    if (!opened) return { status: 'not-found' };
    if ('failed' in opened) return { status: 'failed', reason: opened.failed };
    return SkillCatalogResultSchema.parse(await opened.stub.skillCatalog(opened.caller));
  };

  return {
    async listSkills(cursor) {
      const readable = await readableTaskPage(ctx.env, ctx.identity, { limit: LISTED_TASKS, status: 'ready', now: ctx.deps.now() }, accessDeps(ctx.env));
      // A list GitHub could not vouch for is a failure, never an empty catalog.
      if (!readable.ok) return { ok: false, message: `the tasks you may read could not be listed: ${readable.message}` };
      const ids = readable.page.rows.map((row) => row.taskId);
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
      const opened = await open(parsed.taskId ?? '');
      if (opened && 'failed' in opened) return { ok: false, failed: true, message: opened.failed };
      const read = opened ? SkillFileResultSchema.parse(await opened.stub.readSkillFile(opened.caller, parsed.path)) : { status: 'not-found' as const };
      if (read.status === 'not-found') return { ok: false, message: `no task of this token has the id in ${uri.slice(0, 200)}` };
      if (read.status === 'failed') return { ok: false, failed: true, message: `${uri.slice(0, 200)} could not be read: ${read.reason}` };
      if (read.status !== 'ok') return { ok: false, message: `${uri.slice(0, 200)}: ${read.status === 'conflict' ? read.message : read.reason}` };
      return fileAnswer(read.path, read.bytes);
    },
  };
}


/**
 * @module durable-objects/task-files
 * Files of a task's repository read on request, at the task's pinned commit (the MCP
 * `read_skill` tool and `groundwork://tasks/{id}/sources/{path}` resources): a skill of the
 * commit's index, found with the skills settings turn 0 took effect with, and a rules or skill
 * file the task was given. Only a trusted task reads repository content: an untrusted one was
 * given none, and a read on request would hand the model what its host withheld. Every read is
 * bounded; a remote that does not answer is a failure naming the deadline.
 */
import { SkillsConfigSchema } from '../src/providers/skills/config.ts';
import { readSkill, type SkillRead } from '../src/providers/skills/read-skill.ts';
import { trackedSources } from '../src/freshness/tracked.ts';
import { withDeadline } from '../src/lib/deadline.ts';
import type { OpenedSource } from '../src/tasks/open-source.ts';
import type { SourceReadResult, SkillReadResult } from '../src/tasks/task-results.ts';
import type { TaskRequest } from '../src/tasks/task-request.ts';
import type { TaskRow, TaskStore } from './task-store.ts';

/** As long as a freshness read-back may take: a host asks while the model waits. */
export const FILE_READ_DEADLINE_MS = 10_000;
/** A source file longer than this is cut, and says so. */
const MAX_SOURCE_BYTES = 1024 * 1024;

export interface TaskFileDeps {
  store: TaskStore;
  openSource(request: TaskRequest): Promise<OpenedSource>;
}

type Pinned = { ok: true; commit: string } | { ok: false; result: { status: 'conflict'; message: string } };

function pinned(task: TaskRow, what: string): Pinned {
  if (!task.request.trusted) return { ok: false, result: { status: 'conflict', message: `the task is untrusted: it reads no repository content, so no ${what} is read for it` } };
  if (task.commit_sha === null) return { ok: false, result: { status: 'conflict', message: `the task has not pinned a commit yet (it is ${task.status}); try again once it is ready` } };
  return { ok: true, commit: task.commit_sha };
}

export async function readTaskSkill(task: TaskRow, name: string, deps: TaskFileDeps): Promise<SkillReadResult> {
  const at = pinned(task, 'skill');
  if (!at.ok) return at.result;
  const effective = deps.store.turn(0)?.settings?.providers.find((provider) => provider.name === 'skills');
  if (effective && !effective.enabled) return { status: 'conflict', message: 'the skills provider is disabled for this task: it has no skills index' };
  const config = SkillsConfigSchema.safeParse(effective?.config ?? {});
  const describe = () => `reading skill ${name} at ${at.commit} did not finish within ${FILE_READ_DEADLINE_MS} ms`;
  let read: SkillRead;
  try {
    read = await withDeadline(FILE_READ_DEADLINE_MS, describe, async (signal) => {
      const opened = await deps.openSource(task.request);
      const cwd = task.request.cwd;
      // The skills provider's own scope for the working directory: a skill nested along it is in the task's index.
      const scope = cwd === '' ? { configured: true } : { configured: true, chain: { targets: [cwd], label: `the working directory ${cwd}` } };
      return readSkill(opened.source.snapshot(at.commit, { signal }), config.success ? config.data : SkillsConfigSchema.parse({}), scope, name, signal);
    });
  } catch (error) {
    return { status: 'failed', reason: error instanceof Error ? error.message : String(error) };
  }
  if (!read.ok) return { status: 'missing', reason: read.reason };
  const { ok: _ok, ...skill } = read;
  return { status: 'ok', skill };
}

export async function readTaskSource(task: TaskRow, path: string, deps: TaskFileDeps): Promise<SourceReadResult> {
  const at = pinned(task, 'file');
  if (!at.ok) return at.result;
  const source = trackedSources(deps.store.history(Number.MAX_SAFE_INTEGER)).find((tracked) => tracked.kind === 'file' && tracked.path === path);
  if (!source) return { status: 'missing', reason: `the task was given no file ${path}; its sources are the rules and skill files its turns name` };
  const describe = () => `reading ${path} at ${source.revision} did not finish within ${FILE_READ_DEADLINE_MS} ms`;
  try {
    return await withDeadline(FILE_READ_DEADLINE_MS, describe, async (signal): Promise<SourceReadResult> => {
      const opened = await deps.openSource(task.request);
      const read = await opened.source.snapshot(source.revision, { signal }).read(path, { maxBytes: MAX_SOURCE_BYTES, signal });
      if (read.status !== 'ok') return { status: 'failed', reason: `${path} at ${source.revision} could not be read (${read.status}${'reason' in read ? `: ${read.reason}` : ''})` };
      return { status: 'ok', file: { path, revision: source.revision, blob: read.blob, provider: source.provider, text: read.text, truncated: read.truncated } };
    });
  } catch (error) {
    return { status: 'failed', reason: error instanceof Error ? error.message : String(error) };
  }
}

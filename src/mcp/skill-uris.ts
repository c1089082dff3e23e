/**
 * @module mcp/skill-uris
 * The `skill://` URIs of the skills extension: `skill://<skill-path>/<file-path>`, where the
 * skill path ends in the skill's name ("Resource Mapping", ext-skills skills.mdx). Groundwork's
 * skill path is the skill's directory in the repository, so a URI maps to a file by its path
 * alone: `skill://<taskId>/.agents/skills/release/SKILL.md` on the service (the task pins the
 * commit; the id is the organisational prefix the extension allows) and
 * `skill://.agents/skills/release/SKILL.md` on the local server (the working repository). Each
 * segment is percent-encoded, so a path holds no `?`, `#` or authority syntax.
 *
 * @example
 * skillUri('ab…', '.agents/skills/release/SKILL.md') // 'skill://ab…/.agents/skills/release/SKILL.md'
 * parseSkillUri('skill://ab…/.agents/skills/release/SKILL.md', 'task') // { ok: true, taskId: 'ab…', path: '.agents/skills/release/SKILL.md' }
 */
import { normalisePath } from '../sources/paths.ts';

const SCHEME = 'skill://';
const TASK_ID = /^[0-9a-f]{64}$/;

/** `taskId` undefined: the local server's working repository. */
export function skillUri(taskId: string | undefined, path: string): string {
  return `${SCHEME}${[...(taskId === undefined ? [] : [taskId]), ...path.split('/')].map(encodeURIComponent).join('/')}`;
}

export type ParsedSkillUri = { ok: true; taskId?: string; path: string } | { ok: false; message: string };

/** `scope` says whether URIs of this server start with a task id. */
export function parseSkillUri(uri: string, scope: 'task' | 'repository'): ParsedSkillUri {
  if (!uri.startsWith(SCHEME)) return { ok: false, message: `${uri.slice(0, 200)} is not a skill:// URI` };
  let segments: string[];
  try {
    segments = uri.slice(SCHEME.length).split('/').map(decodeURIComponent);
  } catch {
    return { ok: false, message: `${uri.slice(0, 200)}: not valid percent-encoding` };
  }
  const taskId = scope === 'task' ? segments.shift() : undefined;
  if (scope === 'task' && !TASK_ID.test(taskId ?? '')) return { ok: false, message: `${uri.slice(0, 200)}: expected skill://<task id>/<path>, the task id being 64 hex characters` };
  const normal = normalisePath(segments.join('/'));
  if (!normal.ok || normal.path === '') return { ok: false, message: `${uri.slice(0, 200)}: ${normal.ok ? 'names no file' : normal.reason}` };
  return { ok: true, ...(taskId === undefined ? {} : { taskId }), path: normal.path };
}

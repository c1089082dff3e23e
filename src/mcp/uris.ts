/**
 * @module mcp/uris
 * The resource URIs: `groundwork://tasks/{taskId}/turns/{turn}` and
 * `groundwork://tasks/{taskId}/sources/{+path}` (a repository path, its `/` kept). Parsed here
 * rather than by the SDK's template matcher so a malformed id, turn or path is refused with a
 * reason, and a path is normalised like every other repository path.
 *
 * @example
 * turnUri('ab…', 0)                 // 'groundwork://tasks/ab…/turns/0'
 * sourceUri('ab…', 'docs/AGENTS.md') // 'groundwork://tasks/ab…/sources/docs/AGENTS.md'
 */
import { normalisePath } from '../sources/paths.ts';

const PREFIX = 'groundwork://tasks/';
const TASK_ID = /^[0-9a-f]{64}$/;

type Parsed<T> = ({ ok: true } & T) | { ok: false; message: string };

export const turnUri = (taskId: string, turn: number): string => `${PREFIX}${taskId}/turns/${turn}`;
export const sourceUri = (taskId: string, path: string): string => `${PREFIX}${taskId}/sources/${path.split('/').map(encodeURIComponent).join('/')}`;

function taskPart(uri: string, kind: string): Parsed<{ taskId: string; rest: string }> {
  if (!uri.startsWith(PREFIX)) return { ok: false, message: `${uri} is not a groundwork://tasks/ URI` };
  const [taskId = '', what, ...rest] = uri.slice(PREFIX.length).split('/');
  if (!TASK_ID.test(taskId)) return { ok: false, message: `${uri}: the task id must be 64 hex characters` };
  if (what !== kind || rest.length === 0) return { ok: false, message: `${uri}: expected groundwork://tasks/<id>/${kind}/…` };
  return { ok: true, taskId, rest: rest.join('/') };
}

export const TURN_TEMPLATE = {
  template: `${PREFIX}{taskId}/turns/{turn}`,
  parse(uri: string): Parsed<{ taskId: string; turn: number }> {
    const part = taskPart(uri, 'turns');
    if (!part.ok) return part;
    if (!/^(?:0|[1-9][0-9]{0,3})$/.test(part.rest)) return { ok: false, message: `${uri}: the turn must be a number from 0 to 9999` };
    return { ok: true, taskId: part.taskId, turn: Number(part.rest) };
  },
};

export const SOURCE_TEMPLATE = {
  template: `${PREFIX}{taskId}/sources/{+path}`,
  parse(uri: string): Parsed<{ taskId: string; path: string }> {
    const part = taskPart(uri, 'sources');
    if (!part.ok) return part;
    let decoded: string;
    try {
      decoded = part.rest.split('/').map(decodeURIComponent).join('/');
    } catch {
      return { ok: false, message: `${uri}: the path is not valid percent-encoding` };
    }
    const normal = normalisePath(decoded);
    if (!normal.ok || normal.path === '') return { ok: false, message: `${uri}: ${normal.ok ? 'names no file' : normal.reason}` };
    return { ok: true, taskId: part.taskId, path: normal.path };
  },
};

/**
 * @module cli/run/api-client
 * The REST API of a running Groundwork, as `groundwork run` uses it. Every answer is parsed with
 * the schemas the Worker itself answers with; an error envelope becomes its message.
 */
import type { HostFact } from '../../context/host-facts.ts';
import * as z from 'zod';
import { AssembledTurnSchema, type AssembledTurn } from '../../context/turn-schema.ts';
import { TaskDescriptionSchema, type TaskDescription } from '../../tasks/task-results.ts';

/** The local Worker answers in milliseconds (a long poll, after its wait); this only turns a hang into an error. */
const REQUEST_TIMEOUT_MS = 60_000;

/** `viewUrl`: the signed link to the task's inspector page (null when the service signs no links). */
const CreatedSchema = z.object({ id: z.string(), status: z.string(), viewUrl: z.string().nullable().optional() });
const EnvelopeSchema = z.object({ error: z.object({ code: z.string(), message: z.string() }) });

export interface CreateTaskBody {
  repo: string;
  ref: string;
  commit: string;
  cwd: string;
  paths: string[];
  request: string;
  agent: string;
  /** The client label (`codex`, `claude-code@2.1.332`); absent: none. */
  client?: string;
  trusted: boolean;
  skills: string[];
  origin: 'cli';
  facts?: HostFact[];
}

export interface ApiClient {
  createTask(body: CreateTaskBody): Promise<{ id: string; viewUrl: string | null }>;
  /** `waitSeconds`: the long poll, answered once the task is ready or failed, or after that many seconds. */
  describe(id: string, options?: { waitSeconds?: number }): Promise<TaskDescription>;
  turn(id: string, turn: number): Promise<AssembledTurn>;
  beginTurn(id: string, turn: number): Promise<AssembledTurn>;
}

export function createApiClient(base: URL, token: string): ApiClient {
  const call = async <T extends z.ZodType>(schema: T, path: string, body?: unknown, waitMs = 0): Promise<z.output<T>> => {
    const response = await fetch(new URL(path, base), {
      method: body === undefined ? 'GET' : 'POST',
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(waitMs + REQUEST_TIMEOUT_MS),
    });
    const json: unknown = await response.json().catch(() => undefined);
    if (!response.ok) {
      const envelope = EnvelopeSchema.safeParse(json);
      throw new Error(`${path} answered ${response.status}: ${envelope.success ? `${envelope.data.error.code}: ${envelope.data.error.message}` : 'no error envelope'}`);
    }
    return schema.parse(json);
  };
  return {
    createTask: async (body) => {
      const created = await call(CreatedSchema, '/tasks', body);
      return { id: created.id, viewUrl: created.viewUrl ?? null };
    },
    describe: (id, { waitSeconds } = {}) =>
      waitSeconds === undefined ? call(TaskDescriptionSchema, `/tasks/${id}`) : call(TaskDescriptionSchema, `/tasks/${id}?wait=${waitSeconds}`, undefined, waitSeconds * 1000),
    turn: (id, turn) => call(AssembledTurnSchema, `/tasks/${id}/turns/${turn}`),
    beginTurn: (id, turn) => call(AssembledTurnSchema, `/tasks/${id}/turns`, { turn }),
  };
}

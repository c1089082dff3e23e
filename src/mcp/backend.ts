/**
 * @module mcp/backend
 * What the MCP tools and resources need from wherever tasks live: the Worker's Task objects and
 * knowledge scopes (routes/mcp) or a local repository (cli/mcp). One server definition
 * (mcp/server) serves both, so the two cannot drift. Every method takes arguments already
 * validated by the tool's schema and answers a value: a failure a model can act on is a
 * `ToolAnswer` with `isError`, never an exception. Each tool also gets the call's context
 * (mcp/call-context): who the client says it is.
 */
import type { CallContext } from './call-context.ts';
import type { SkillsBackend } from './skill-entries.ts';
import type { AssembleContextArgs, CheckBeforeArgs, CheckFreshnessArgs, ContextForPathsArgs, GetTurnArgs, PostFollowupArgs, ReadSkillArgs, RecallArgs, RememberArgs, RetireKnowledgeArgs } from './tool-inputs.ts';

/** A tool's result: the text the model reads and, for programs, the same facts as JSON. */
export interface ToolAnswer {
  text: string;
  structured?: Record<string, unknown>;
  isError?: boolean;
}

export interface ListedResource {
  uri: string;
  name: string;
  title?: string;
  mimeType: string;
  description?: string;
}

/** `ttlMs`: how long a client may take it as current; a file at a pinned commit an hour when absent. */
interface Found {
  ok: true;
  mimeType: string;
  meta?: Record<string, unknown>;
  ttlMs?: number;
}

export type ResourceAnswer =
  | (Found & { text: string })
  /** Bytes that are not text (a skill's image or archive), base64-encoded. */
  | (Found & { blob: string })
  /** No such resource for this caller (another tenant's task is one); `failed`: there may be, but it could not be read. */
  | { ok: false; message: string; failed?: true };

export type Tool<Args> = (args: Args, call: CallContext) => Promise<ToolAnswer>;

export interface GroundworkBackend extends SkillsBackend {
  /** UTC `YYYY-MM-DD`: review dates of new knowledge are checked against it. */
  today(): string;
  assembleContext: Tool<AssembleContextArgs>;
  getTurn: Tool<GetTurnArgs>;
  /** Absent where a task has no later turns (the local server): the tool is then not offered. */
  contextForPaths?: Tool<ContextForPathsArgs>;
  checkFreshness: Tool<CheckFreshnessArgs>;
  checkBefore: Tool<CheckBeforeArgs>;
  readSkill: Tool<ReadSkillArgs>;
  remember: Tool<RememberArgs>;
  recall: Tool<RecallArgs>;
  retireKnowledge: Tool<RetireKnowledgeArgs>;
  postFollowup: Tool<PostFollowupArgs>;
  /** Turn resources worth offering in `resources/list` (the caller's recent ready tasks). */
  listTurns(): Promise<ListedResource[]>;
  readTurn(taskId: string, turn: number): Promise<ResourceAnswer>;
  /** A rules or skill file the task read, at its pinned commit. */
  readSource(taskId: string, path: string): Promise<ResourceAnswer>;
  /** For completions of the resource templates: the turns a task has, and the files it read. */
  taskTurns(taskId: string): Promise<number[]>;
  taskSourcePaths(taskId: string): Promise<string[]>;
}

export const refusal = (text: string, structured?: Record<string, unknown>): ToolAnswer => ({ text, isError: true, ...(structured ? { structured } : {}) });

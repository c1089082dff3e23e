/**
 * @module mcp/backend
 * What the MCP tools and resources need from wherever tasks live: the Worker's Task objects and
 * knowledge scopes (routes/mcp) or a local repository (cli/mcp). One server definition
 * (mcp/server) serves both, so the two cannot drift. Every method takes arguments already
 * validated by the tool's schema and answers a value: a failure a model can act on is a
 * `ToolAnswer` with `isError`, never an exception.
 */
import type { AssembleContextArgs, CheckBeforeArgs, CheckFreshnessArgs, ContextForPathsArgs, GetTurnArgs, PostFollowupArgs, ReadSkillArgs, RecallArgs, RememberArgs, RetireKnowledgeArgs, RulesForPathsArgs } from './tool-inputs.ts';

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

export type ResourceAnswer =
  | { ok: true; text: string; mimeType: string; meta?: Record<string, unknown> }
  /** No such resource for this caller (another tenant's task is one). */
  | { ok: false; message: string };

export interface GroundworkBackend {
  /** UTC `YYYY-MM-DD`: review dates of new knowledge are checked against it. */
  today(): string;
  assembleContext(args: AssembleContextArgs): Promise<ToolAnswer>;
  getTurn(args: GetTurnArgs): Promise<ToolAnswer>;
  /** Absent where a task has no later turns (the local server): the tool is then not offered. */
  contextForPaths?(args: ContextForPathsArgs): Promise<ToolAnswer>;
  checkFreshness(args: CheckFreshnessArgs): Promise<ToolAnswer>;
  checkBefore(args: CheckBeforeArgs): Promise<ToolAnswer>;
  readSkill(args: ReadSkillArgs): Promise<ToolAnswer>;
  rulesForPaths(args: RulesForPathsArgs): Promise<ToolAnswer>;
  remember(args: RememberArgs): Promise<ToolAnswer>;
  recall(args: RecallArgs): Promise<ToolAnswer>;
  retireKnowledge(args: RetireKnowledgeArgs): Promise<ToolAnswer>;
  postFollowup(args: PostFollowupArgs): Promise<ToolAnswer>;
  /** Turn resources worth offering in `resources/list` (the caller's recent ready tasks). */
  listTurns(): Promise<ListedResource[]>;
  readTurn(taskId: string, turn: number): Promise<ResourceAnswer>;
  /** A rules or skill file the task read, at its pinned commit. */
  readSource(taskId: string, path: string): Promise<ResourceAnswer>;
}

export const refusal = (text: string, structured?: Record<string, unknown>): ToolAnswer => ({ text, isError: true, ...(structured ? { structured } : {}) });

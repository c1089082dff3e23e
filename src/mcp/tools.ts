/**
 * @module mcp/tools
 * The tool catalog: each tool's stable name, what it is for (the description a model chooses
 * by), its input schema and its annotations. Annotations are hints clients act on: one that is
 * not read-only is confirmed with the user before it runs, so only the tools that change
 * nothing say `readOnlyHint`. `openWorldHint` is set where a call reaches outside the service
 * (a repository's host); locally a repository on this machine is not the open world.
 */
import {
  assembleContextSchema,
  checkBeforeSchema,
  checkFreshnessSchema,
  contextForPathsSchema,
  getTurnSchema,
  postFollowupSchema,
  readSkillSchema,
  recallSchema,
  rememberSchema,
  retireKnowledgeSchema,
  rulesForPathsSchema,
} from './tool-inputs.ts';

/** MCP's tool annotations: hints a client acts on, never guarantees. */
export interface ToolAnnotations {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

interface ToolSpec<Input> {
  title: string;
  description: string;
  /** Builds (once) the schema calls are validated with; `remember`'s takes today's date. */
  input: Input;
  annotations: Omit<ToolAnnotations, 'openWorldHint'>;
  /** Whether a call reaches a repository host: always, only from the remote server, or never. */
  openWorld: 'always' | 'remote' | 'never';
}

const spec = <Input>(tool: ToolSpec<Input>): ToolSpec<Input> => tool;

export const TOOLS = {
  assemble_context: spec({
    title: 'Assemble task context',
    description:
      'Call once at the start of a coding task. Pins the repository at a commit and returns the context to start from: the task, the repository rules along the working directory (AGENTS.md and the like), the skills index and selected skills, recorded knowledge, each labeled with path@commit. Structured content has the task id (for the other tools), commit, digest, provider outcomes and an inspector link. Waits up to 25 s; a task not ready by then answers its id and status, and get_turn reads it later.',
    input: assembleContextSchema,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
    openWorld: 'remote',
  }),
  get_turn: spec({
    title: 'Read a turn',
    description:
      'Reads turn n (0 by default) of a task: its context as text, or with format the whole request body a model API takes (anthropic, openai-responses, openai-chat). Use it to poll a task assemble_context left assembling.',
    input: getTurnSchema,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
    openWorld: 'never',
  }),
  context_for_paths: spec({
    title: 'Context for new paths',
    description:
      'Call when the work moves to files or directories the task was not started on (or needs a skill it was not given). Records them on the task and begins its next turn, which adds the rules along those paths and the skills named that the task was not given yet, labeled with path@commit; says so when they bring nothing new.',
    input: contextForPathsSchema,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
    openWorld: 'remote',
  }),
  check_freshness: spec({
    title: 'Check freshness',
    description:
      "Call before a consequential action (pushing, merging, reporting done). Compares every rules and skill file the task was given with where the task's ref points now, and says which changed or were deleted; also which rule files apply to the task's paths now that did not at its commit, or no longer do, as the task's client loads them.",
    input: checkFreshnessSchema,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
    openWorld: 'remote',
  }),
  check_before: spec({
    title: 'Check before an action',
    description:
      "Call right before a consequential action: push (is the branch or the base where the task left it), report-ci (did CI pass on this commit, is it still the head), merge (is the reviewed head still the head and approved), apply-knowledge (does the knowledge the task was given still hold). Answers go, stop or unknown with the reasons, and records the answer on the task.",
    input: checkBeforeSchema,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
    openWorld: 'remote',
  }),
  read_skill: spec({
    title: 'Read a skill',
    description: "Returns a skill's full SKILL.md, at the task's commit, and the files bundled in its directory. Name it as the task's skills index does (or by its directory).",
    input: readSkillSchema,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
    openWorld: 'remote',
  }),
  rules_for_paths: spec({
    title: 'Rules for paths',
    description:
      "Call to know which repository rule files apply to some paths (e.g. the files a change touches) and which coding agents see them: for each rule file on their way, at the task's commit, its blob, Groundwork's verdict and one cell per client (Codex, Claude Code, Gemini CLI, Copilot, Cursor: loaded by itself, lazy, given by Groundwork, not seen, shadowed, cut), and the lints (what a client would drop without a word). Reads only; records nothing on the task.",
    input: rulesForPathsSchema,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
    openWorld: 'remote',
  }),
  remember: spec({
    title: 'Remember',
    description:
      "Records knowledge about a repository for later tasks: one statement, the source that supports it (a URI; a path and commit make it checkable), a kind (fact by default) and a review date (90 days by default). Later tasks on the repository get it with its source checked against their commit.",
    input: rememberSchema,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
    openWorld: 'never',
  }),
  recall: spec({
    title: 'Recall knowledge',
    description: 'Lists the knowledge recorded for a repository, newest first: all, active, retired, or due for review.',
    input: recallSchema,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
    openWorld: 'never',
  }),
  retire_knowledge: spec({
    title: 'Retire knowledge',
    description: 'Retires a piece of knowledge that no longer holds, with the reason; later tasks no longer get it. Its versions are kept.',
    input: retireKnowledgeSchema,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
    openWorld: 'never',
  }),
  post_followup: spec({
    title: 'Post a follow-up',
    description: "Posts a follow-up to a task's mailbox (what its requester added since); the task's next turn delivers it to the model. With id, a retry posts nothing new.",
    input: postFollowupSchema,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
    openWorld: 'never',
  }),
} as const;

export type ToolName = keyof typeof TOOLS;
export const TOOL_NAMES = Object.keys(TOOLS) as ToolName[];

/**
 * @module context/agents
 * Agent configurations: who the model is asked to be, which providers feed it, which
 * capabilities it has and which tools it is shown. Host-owned and declarative; a repository can
 * never add to or change one.
 */
import * as z from 'zod';
import { lazySchema } from '../lib/lazy-schema.ts';
import { ORDER_POLICY_NAMES } from './order-policy.ts';
import { CAPABILITIES } from './provider.ts';
import { ProviderSelectionSchema } from './provider-selection.ts';
import { ToolInputSchemaSchema } from './tool-input-schema.ts';
import { deepFreeze } from '../lib/deep-freeze.ts';

/** Bounds of one agent configuration; a catalog past them fails at start, naming the field. */
export const AGENT_LIMITS = { maxInstructions: 32_000, maxTools: 64, maxDescription: 16_000, maxToolsBytes: 262_144, maxTotalBudget: 200_000 } as const;

/**
 * A tool as vendors accept it: Anthropic and OpenAI both take `a-z A-Z 0-9 _ -`, 1 to 64
 * characters (so Claude Code's `Bash` and `mcp__github__create_issue` and Codex's `apply_patch`
 * all pass); the description says when to use it; `input_schema` is checked in tool-input-schema.
 */
export const ToolSchema = lazySchema(() => z.object({
  name: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, 'must be 1-64 characters of a-z A-Z 0-9 _ - (the names Anthropic and OpenAI both accept)'),
  description: z.string().trim().min(1, 'must not be empty').max(AGENT_LIMITS.maxDescription),
  /** A JSON Schema for the tool's arguments; every vendor wants an object at the top. */
  input_schema: ToolInputSchemaSchema,
}));
export type Tool = z.infer<typeof ToolSchema>;

const Tools = lazySchema(() => z
  .array(ToolSchema)
  .max(AGENT_LIMITS.maxTools)
  .superRefine((tools, ctx) => {
    const seen = new Set<string>();
    tools.forEach((tool, index) => {
      if (seen.has(tool.name)) ctx.addIssue({ code: 'custom', path: [index, 'name'], message: `"${tool.name}" is declared twice; tool names are unique per agent` });
      seen.add(tool.name);
    });
    const bytes = new TextEncoder().encode(JSON.stringify(tools)).length;
    if (bytes > AGENT_LIMITS.maxToolsBytes) ctx.addIssue({ code: 'custom', message: `are ${bytes} bytes as JSON, over ${AGENT_LIMITS.maxToolsBytes}: every request carries them` });
  }));

export const AgentConfigSchema = lazySchema(() => z.strictObject({
  name: z.string().regex(/^[a-z][a-z0-9-]{0,63}$/, 'must be 1-64 characters of a-z 0-9 -, starting with a letter'),
  /** The host's system instructions for this agent: the first system block of every request. */
  instructions: z.string().trim().min(1, 'must not be empty').max(AGENT_LIMITS.maxInstructions),
  /** Which providers run: `all`, names, or `{ except: [...] }` (see context/provider-selection). */
  providers: ProviderSelectionSchema,
  capabilities: z.array(z.enum(CAPABILITIES)),
  tools: Tools,
  /** Total token budget of the rendered context entries. */
  totalBudget: z.number().int().positive().max(AGENT_LIMITS.maxTotalBudget),
  /** How the first user message is laid out (`context/order-policy`). */
  contextOrder: z.enum(ORDER_POLICY_NAMES).default('cache-stable'),
}));
export type AgentConfig = z.infer<typeof AgentConfigSchema>;

const pathInput = (description: string) => ({
  type: 'object' as const,
  properties: { path: { type: 'string', description } },
  required: ['path'],
});

const TOOLS = {
  read_file: { name: 'read_file', description: 'Read a file of the repository at the task commit.', input_schema: pathInput('Path from the repository root.') },
  list_directory: { name: 'list_directory', description: 'List a directory of the repository at the task commit.', input_schema: pathInput('Directory from the repository root; "" for the root.') },
  search_code: {
    name: 'search_code',
    description: 'Search the repository at the task commit for a literal string.',
    input_schema: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
  },
  edit_file: {
    name: 'edit_file',
    description: 'Replace the full contents of a file in the working copy. The host asks for approval.',
    input_schema: { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' } }, required: ['path', 'content'] },
  },
  post_review_comment: {
    name: 'post_review_comment',
    description: 'Post a review comment on the pull request, optionally on one line of one file.',
    input_schema: { type: 'object', properties: { body: { type: 'string' }, path: { type: 'string' }, line: { type: 'integer' } }, required: ['body'] },
  },
  reply: {
    name: 'reply',
    description: 'Reply to the person who asked, in the conversation the task came from.',
    input_schema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  },
} satisfies Record<string, Tool>;

/** Held to AgentConfigSchema by test/context/agents.test.ts rather than parsed at every cold start (~7 ms of CPU). */
const BUILTINS: Omit<AgentConfig, 'contextOrder'>[] = [
  {
    name: 'entry',
    instructions: 'You are a coding agent working on the repository named in the task. Make the smallest change that fully does what the task asks, and say what you changed and why.',
    providers: 'all',
    capabilities: ['repo:read', 'github:api', 'knowledge:read', 'tasks:read'],
    tools: [TOOLS.read_file, TOOLS.list_directory, TOOLS.search_code, TOOLS.edit_file],
    totalBudget: 24_000,
  },
  {
    name: 'reviewer',
    instructions: 'You review a pull request. Read the change against the repository rules, point out defects with file and line, and separate blocking problems from suggestions. You do not edit code.',
    // Review judges the change against the repository as it is; remembered knowledge is for doing work.
    providers: { except: ['memory'] },
    // Earlier tasks on the pull request (what was said, what each read) are part of reviewing it.
    capabilities: ['repo:read', 'github:api', 'tasks:read'],
    tools: [TOOLS.read_file, TOOLS.list_directory, TOOLS.search_code, TOOLS.post_review_comment],
    totalBudget: 24_000,
  },
  {
    name: 'explorer',
    instructions: 'You answer questions about the repository by reading it. You have read-only access: you never edit files or run commands.',
    // Without tasks:read, history would only ever add a notice; it is not run at all.
    providers: { except: ['memory', 'history'] },
    capabilities: ['repo:read'],
    tools: [TOOLS.read_file, TOOLS.list_directory, TOOLS.search_code],
    totalBudget: 16_000,
  },
  {
    name: 'communicator',
    instructions: 'You talk with people about a task: summarise, clarify and report status. You have no access to the repository.',
    providers: { except: ['history'] },
    capabilities: ['knowledge:read'],
    tools: [TOOLS.reply],
    totalBudget: 8_000,
  },
];

/**
 * Built-in configurations, with the schema's default order. Not parsed at load (that cost every
 * cold isolate and CLI start several ms of zod); a test holds them to AgentConfigSchema.
 */
export const BUILTIN_AGENTS: ReadonlyMap<string, AgentConfig> = new Map(BUILTINS.map((agent) => [agent.name, deepFreeze({ ...agent, contextOrder: 'cache-stable' })]));

/**
 * @module mcp/server
 * The Groundwork MCP server: its tools and resources over a backend (mcp/backend), the same for
 * the remote server on the Worker and the local one `groundwork mcp` runs. The official SDK's
 * `McpServer` validates every call with the tool's zod schema (a bad argument comes back as a
 * tool result with `isError: true` naming the field) and lists the JSON Schema made from it.
 *
 * The SDK's own JSON Schema validation (of a client's answer to an elicitation) is never used:
 * this server asks none (mcp/no-elicitation), so no validator compiles code at run time.
 *
 * Skills are not offered as MCP prompts: prompts are listed for the whole server, while a
 * skills index belongs to one task at one commit, and `prompts/list` carries no task. A model
 * reads a skill of its task with `read_skill`.
 */
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult, ReadResourceResult, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { groundworkVersion } from '../lib/version.ts';
import { noElicitationValidator } from './no-elicitation.ts';
import type { GroundworkBackend, ResourceAnswer, ToolAnswer } from './backend.ts';
import { TOOLS, type ToolName } from './tools.ts';
import { SOURCE_TEMPLATE, TURN_TEMPLATE } from './uris.ts';

export interface ServerOptions {
  /** `remote`: tasks on the service, repositories read over the network. `local`: this machine's repository. */
  where: 'remote' | 'local';
  /** Where an unexpected error's details go (never to the client): stderr locally, the Worker's log remotely. */
  log(message: string, error: unknown): void;
}

/** The protocol's code for a resource that does not exist (the SDK's enum lacks it). */
const RESOURCE_NOT_FOUND = -32002;

const instructions = (paths: boolean) => `Groundwork assembles the context a coding agent should start a task from: the repository's rules (AGENTS.md and the like along the working directory), its skills, and what the team recorded, each labeled with path@commit.
Call assemble_context once at the start of a task, with the task's request; read what it returns before you plan. ${paths ? 'When you move to other paths, call context_for_paths. ' : ''}Before pushing, merging or reporting the task done, call check_before with that action (check_freshness says which rules and skill files changed). Read a skill the index lists with read_skill. remember records what the team should know next time (with its source); recall lists it.`;

export function createGroundworkServer(backend: GroundworkBackend, options: ServerOptions): McpServer {
  const server = new McpServer(
    { name: 'groundwork', title: 'Groundwork', version: groundworkVersion },
    { instructions: instructions(backend.contextForPaths !== undefined), jsonSchemaValidator: noElicitationValidator },
  );
  const guarded = async (name: ToolName, run: () => Promise<ToolAnswer>): Promise<CallToolResult> => {
    try {
      return toolResult(await run());
    } catch (error) {
      // Only the SDK's own validation errors carry text meant for the client; ours never throw on purpose.
      options.log(`mcp tool ${name} failed`, error);
      return toolResult({ text: `${name} failed with an internal error; the details are in the service log.`, isError: true });
    }
  };
  const annotations = (name: ToolName): ToolAnnotations => ({ ...TOOLS[name].annotations, openWorldHint: TOOLS[name].openWorld === 'always' || (TOOLS[name].openWorld === 'remote' && options.where === 'remote') });
  const describe = (name: ToolName) => ({ title: TOOLS[name].title, description: TOOLS[name].description, annotations: annotations(name) });

  server.registerTool('assemble_context', { ...describe('assemble_context'), inputSchema: TOOLS.assemble_context.input }, (args) => guarded('assemble_context', () => backend.assembleContext(args)));
  server.registerTool('get_turn', { ...describe('get_turn'), inputSchema: TOOLS.get_turn.input }, (args) => guarded('get_turn', () => backend.getTurn(args)));
  const contextForPaths = backend.contextForPaths?.bind(backend);
  if (contextForPaths) server.registerTool('context_for_paths', { ...describe('context_for_paths'), inputSchema: TOOLS.context_for_paths.input }, (args) => guarded('context_for_paths', () => contextForPaths(args)));
  server.registerTool('check_freshness', { ...describe('check_freshness'), inputSchema: TOOLS.check_freshness.input }, (args) => guarded('check_freshness', () => backend.checkFreshness(args)));
  server.registerTool('check_before', { ...describe('check_before'), inputSchema: TOOLS.check_before.input }, (args) => guarded('check_before', () => backend.checkBefore(args)));
  server.registerTool('read_skill', { ...describe('read_skill'), inputSchema: TOOLS.read_skill.input }, (args) => guarded('read_skill', () => backend.readSkill(args)));
  server.registerTool('remember', { ...describe('remember'), inputSchema: TOOLS.remember.input(backend.today()) }, (args) => guarded('remember', () => backend.remember(args)));
  server.registerTool('recall', { ...describe('recall'), inputSchema: TOOLS.recall.input }, (args) => guarded('recall', () => backend.recall(args)));
  server.registerTool('retire_knowledge', { ...describe('retire_knowledge'), inputSchema: TOOLS.retire_knowledge.input }, (args) => guarded('retire_knowledge', () => backend.retireKnowledge(args)));
  server.registerTool('post_followup', { ...describe('post_followup'), inputSchema: TOOLS.post_followup.input }, (args) => guarded('post_followup', () => backend.postFollowup(args)));

  const read = async (uri: URL, answer: () => Promise<ResourceAnswer>): Promise<ReadResourceResult> => {
    let result: ResourceAnswer;
    try {
      result = await answer();
    } catch (error) {
      options.log(`mcp resource ${uri.href} failed`, error);
      throw new McpError(ErrorCode.InternalError, `reading ${uri.href} failed with an internal error; the details are in the service log`);
    }
    if (!result.ok) throw new McpError(RESOURCE_NOT_FOUND, result.message, { uri: uri.href });
    return { contents: [{ uri: uri.href, mimeType: result.mimeType, text: result.text, ...(result.meta ? { _meta: result.meta } : {}) }] };
  };

  server.registerResource(
    'turn',
    new ResourceTemplate(TURN_TEMPLATE.template, { list: async () => ({ resources: await backend.listTurns() }) }),
    { title: 'A turn of a task', description: 'The assembled turn as JSON: system blocks, transcript items, provider outcomes, entries with their sources, digest.', mimeType: 'application/json' },
    (uri) => read(uri, () => {
      const parsed = TURN_TEMPLATE.parse(uri.href);
      return parsed.ok ? backend.readTurn(parsed.taskId, parsed.turn) : Promise.resolve(parsed);
    }),
  );
  server.registerResource(
    'source',
    new ResourceTemplate(SOURCE_TEMPLATE.template, { list: undefined }),
    { title: 'A rules or skill file a task read', description: 'The file as the task read it, at its pinned commit; _meta names the commit and the blob.', mimeType: 'text/markdown' },
    (uri) => read(uri, () => {
      const parsed = SOURCE_TEMPLATE.parse(uri.href);
      return parsed.ok ? backend.readSource(parsed.taskId, parsed.path) : Promise.resolve(parsed);
    }),
  );
  return server;
}

function toolResult(answer: ToolAnswer): CallToolResult {
  return {
    content: [{ type: 'text', text: answer.text }],
    ...(answer.structured ? { structuredContent: answer.structured } : {}),
    ...(answer.isError ? { isError: true } : {}),
  };
}

/**
 * @module mcp/server
 * The Groundwork MCP server: its tools and resources over a backend (mcp/backend), the same for
 * the remote server on the Worker and the local one `groundwork mcp` runs. It answers one
 * JSON-RPC message at a time and keeps no state between them, so a transport may make one per
 * request (the Worker's stateless HTTP) or one per process (stdio).
 *
 * The protocol is implemented here rather than with the official SDK's server: what this server
 * needs of it (lifecycle, tools, resources, ping) is small, and the SDK's server and transport
 * were a quarter of the Worker bundle's growth in this wave (about 22 KiB gzipped, issue 28). The
 * tests talk to it with the SDK's own client, over both transports.
 *
 * Every call is validated with the tool's zod schema; a bad argument is a tool result with
 * `isError: true` naming the field, so the model can correct it. `tools/list` carries the JSON
 * Schema (draft 7, the input side) made from that same schema.
 *
 * Skills are not offered as MCP prompts: prompts are listed for the whole server, while a
 * skills index belongs to one task at one commit, and `prompts/list` carries no task. A model
 * reads a skill of its task with `read_skill`.
 */
import * as z from 'zod';
import { describeIssues } from '../context/zod-issues.ts';
import { once } from '../lib/once.ts';
import { groundworkVersion } from '../lib/version.ts';
import type { GroundworkBackend, ResourceAnswer, ToolAnswer } from './backend.ts';
import { errorAnswer, PROTOCOL_VERSIONS, RPC, RpcError, type JsonRpcAnswer, type JsonRpcMessage } from './json-rpc.ts';
import { withMcpClient, type McpClientInfo } from './client-info.ts';
import { TOOLS, type ToolAnnotations, type ToolName } from './tools.ts';
import { SOURCE_TEMPLATE, TURN_TEMPLATE } from './uris.ts';

export interface ServerOptions {
  /** `remote`: tasks on the service, repositories read over the network. `local`: this machine's repository. */
  where: 'remote' | 'local';
  /** Where an unexpected error's details go (never to the client): stderr locally, the Worker's log remotely. */
  log(message: string, error: unknown): void;
}

export interface GroundworkMcpServer {
  /** The answer to a request; undefined for a notification or a client's response, which get none. */
  answer(message: JsonRpcMessage): Promise<JsonRpcAnswer | undefined>;
}

const instructions = (paths: boolean) => `Groundwork assembles the context a coding agent should start a task from: the repository's rules (AGENTS.md and the like along the working directory), its skills, and what the team recorded, each labeled with path@commit.
Call assemble_context once at the start of a task, with the task's request; read what it returns before you plan. ${paths ? 'When you move to other paths, call context_for_paths. ' : ''}Before pushing, merging or reporting the task done, call check_before with that action (check_freshness says which rules and skill files changed). Read a skill the index lists with read_skill; rules_for_paths says which rule files apply to some paths and which coding agents see them. remember records what the team should know next time (with its source); recall lists it.`;

// Built on the first MCP request, not at the Worker's start-up.
const initializeParams = once(() => z.looseObject({ protocolVersion: z.string(), clientInfo: z.looseObject({ name: z.unknown(), version: z.unknown() }).optional() }));
const callParams = once(() => z.looseObject({ name: z.string(), arguments: z.record(z.string(), z.unknown()).optional() }));
const readParams = once(() => z.looseObject({ uri: z.string() }));

const RESOURCE_TEMPLATES = [
  { name: 'turn', uriTemplate: TURN_TEMPLATE.template, title: 'A turn of a task', description: 'The assembled turn as JSON: system blocks, transcript items, provider outcomes, entries with their sources, digest.', mimeType: 'application/json' },
  { name: 'source', uriTemplate: SOURCE_TEMPLATE.template, title: 'A rules or skill file a task read', description: 'The file as the task read it, at its pinned commit; _meta names the commit and the blob.', mimeType: 'text/markdown' },
] as const;

interface ToolEntry {
  schema: z.ZodType<unknown, unknown>;
  run(args: never): Promise<ToolAnswer>;
}

export function createGroundworkServer(backend: GroundworkBackend, options: ServerOptions): GroundworkMcpServer {
  // Built when a tools/ method asks, not for every request (each POST /mcp makes a server).
  const table = once(() => toolTable(backend));
  const annotations = (name: ToolName): ToolAnnotations => ({ ...TOOLS[name].annotations, openWorldHint: TOOLS[name].openWorld === 'always' || (TOOLS[name].openWorld === 'remote' && options.where === 'remote') });

  // Who the host says it is, for assemble_context's default client (mcp/client-info).
  let clientInfo: McpClientInfo | undefined;

  const methods: Record<string, (params: unknown) => Promise<Record<string, unknown>>> = {
    initialize: async (params) => {
      const { protocolVersion, clientInfo: info } = paramsOf(initializeParams(), params);
      clientInfo = info;
      return {
        protocolVersion: (PROTOCOL_VERSIONS as readonly string[]).includes(protocolVersion) ? protocolVersion : PROTOCOL_VERSIONS[0],
        // No listChanged: a stateless server has no connection to tell of a change.
        capabilities: { tools: {}, resources: {} },
        serverInfo: { name: 'groundwork', title: 'Groundwork', version: groundworkVersion },
        instructions: instructions(backend.contextForPaths !== undefined),
      };
    },
    ping: async () => ({}),
    'tools/list': async () => ({
      tools: [...table()].map(([name, tool]) => ({
        name,
        title: TOOLS[name].title,
        description: TOOLS[name].description,
        inputSchema: z.toJSONSchema(tool.schema, { target: 'draft-7', io: 'input' }),
        annotations: annotations(name),
      })),
    }),
    'tools/call': async (params) => {
      const call = paramsOf(callParams(), params);
      const tools = table();
      const tool = tools.get(call.name as ToolName);
      if (!tool) return toolResult({ text: `Unknown tool ${call.name.slice(0, 100)}; this server's tools are ${[...tools.keys()].join(', ')}.`, isError: true });
      const given = call.arguments ?? {};
      const args = await tool.schema.safeParseAsync(call.name === 'assemble_context' ? withMcpClient(given, clientInfo) : given);
      if (!args.success) return toolResult({ text: `Invalid arguments for tool ${call.name}: ${describeIssues(args.error, '')}`, isError: true });
      try {
        return toolResult(await tool.run(args.data as never));
      } catch (error) {
        // The backends answer every failure a model can act on; a throw is ours.
        options.log(`mcp tool ${call.name} failed`, error);
        return toolResult({ text: `${call.name} failed with an internal error; the details are in the service log.`, isError: true });
      }
    },
    'resources/list': async () => ({ resources: (await backend.listTurns()).map((resource) => ({ title: RESOURCE_TEMPLATES[0].title, description: RESOURCE_TEMPLATES[0].description, ...resource })) }),
    'resources/templates/list': async () => ({ resourceTemplates: RESOURCE_TEMPLATES }),
    'resources/read': async (params) => {
      const { uri } = paramsOf(readParams(), params);
      return readResource(uri, backend, options);
    },
  };

  return {
    async answer(message) {
      if (message.kind !== 'request') return undefined;
      const { id, method, params } = message.request;
      const handler = Object.hasOwn(methods, method) ? methods[method] : undefined;
      if (!handler) return errorAnswer(id, RPC.methodNotFound, `Method not found: ${method.slice(0, 100)}`);
      try {
        return { jsonrpc: '2.0', id, result: await handler(params) };
      } catch (error) {
        if (error instanceof RpcError) return errorAnswer(id, error.code, error.message, error.data);
        options.log(`mcp ${method} failed`, error);
        return errorAnswer(id, RPC.internalError, `${method} failed with an internal error; the details are in the service log`);
      }
    },
  };
}

/** The tools this backend offers, in catalog order; `context_for_paths` only where tasks have later turns. */
function toolTable(backend: GroundworkBackend): Map<ToolName, ToolEntry> {
  const entries: Array<[ToolName, ToolEntry | undefined]> = [
    ['assemble_context', { schema: TOOLS.assemble_context.input(), run: (args) => backend.assembleContext(args) }],
    ['get_turn', { schema: TOOLS.get_turn.input(), run: (args) => backend.getTurn(args) }],
    ['context_for_paths', backend.contextForPaths ? { schema: TOOLS.context_for_paths.input(), run: (args) => backend.contextForPaths!(args) } : undefined],
    ['check_freshness', { schema: TOOLS.check_freshness.input(), run: (args) => backend.checkFreshness(args) }],
    ['check_before', { schema: TOOLS.check_before.input(), run: (args) => backend.checkBefore(args) }],
    ['read_skill', { schema: TOOLS.read_skill.input(), run: (args) => backend.readSkill(args) }],
    ['rules_for_paths', { schema: TOOLS.rules_for_paths.input(), run: (args) => backend.rulesForPaths(args) }],
    ['remember', { schema: TOOLS.remember.input(backend.today()), run: (args) => backend.remember(args) }],
    ['recall', { schema: TOOLS.recall.input(), run: (args) => backend.recall(args) }],
    ['retire_knowledge', { schema: TOOLS.retire_knowledge.input(), run: (args) => backend.retireKnowledge(args) }],
    ['post_followup', { schema: TOOLS.post_followup.input(), run: (args) => backend.postFollowup(args) }],
  ];
  return new Map(entries.filter((entry): entry is [ToolName, ToolEntry] => entry[1] !== undefined));
}

async function readResource(uri: string, backend: GroundworkBackend, options: ServerOptions): Promise<Record<string, unknown>> {
  const kind = /^groundwork:\/\/tasks\/[^/]*\/(turns|sources)\//.exec(uri)?.[1];
  if (!kind) throw new RpcError(RPC.invalidParams, `Resource ${uri.slice(0, 200)} not found: this server's resources are ${RESOURCE_TEMPLATES.map((template) => template.uriTemplate).join(' and ')}`);
  let result: ResourceAnswer;
  try {
    if (kind === 'turns') {
      const parsed = TURN_TEMPLATE.parse(uri);
      result = parsed.ok ? await backend.readTurn(parsed.taskId, parsed.turn) : parsed;
    } else {
      const parsed = SOURCE_TEMPLATE.parse(uri);
      result = parsed.ok ? await backend.readSource(parsed.taskId, parsed.path) : parsed;
    }
  } catch (error) {
    options.log(`mcp resource ${uri} failed`, error);
    throw new RpcError(RPC.internalError, `reading ${uri} failed with an internal error; the details are in the service log`);
  }
  if (!result.ok) throw new RpcError(RPC.resourceNotFound, result.message, { uri });
  return { contents: [{ uri, mimeType: result.mimeType, text: result.text, ...(result.meta ? { _meta: result.meta } : {}) }] };
}

function paramsOf<S extends z.ZodType>(schema: S, params: unknown): z.output<S> {
  const parsed = schema.safeParse(params ?? {});
  if (!parsed.success) throw new RpcError(RPC.invalidParams, `Invalid params: ${describeIssues(parsed.error, 'params')}`);
  return parsed.data;
}

function toolResult(answer: ToolAnswer): Record<string, unknown> {
  return {
    content: [{ type: 'text', text: answer.text }],
    ...(answer.structured ? { structuredContent: answer.structured } : {}),
    ...(answer.isError ? { isError: true } : {}),
  };
}

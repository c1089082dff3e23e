/**
 * @module mcp/tool-methods
 * `tools/list` and `tools/call`. The list is the catalog's order every time (2026-07-28 Tools:
 * "Servers SHOULD return tools in a deterministic order", so prompt caches hold) with each tool's
 * title, icon, input schema (JSON Schema draft 7, the input side of the zod schema calls are
 * validated with), output schema (mcp/tool-outputs) and annotations. Both schemas are JSON made
 * from the zod schemas at build time (mcp/tool-schemas), so no JSON Schema converter runs here
 * and a `tools/list` converts nothing (issue 56: converting was most of its CPU).
 *
 * A call to a tool this server does not have is a protocol error (-32602), as the specification
 * lists "Unknown tools" among them; an argument the tool's schema refuses is a tool result with
 * `isError: true` naming the field, so the model can correct it (2025-11-25 and 2026-07-28 alike:
 * "Input validation errors" are tool execution errors).
 */
import * as z from 'zod';
import { describeIssues } from '../context/zod-issues.ts';
import { once } from '../lib/once.ts';
import type { GroundworkBackend, ToolAnswer } from './backend.ts';
import { cacheHints, refuseCursor, STABLE_TTL_MS } from './cache-hints.ts';
import type { CallContext } from './call-context.ts';
import { withMcpClient } from './client-info.ts';
import { groundworkIcons } from './icons.ts';
import { RPC, RpcError } from './json-rpc.ts';
import type { Method, ServerOptions } from './methods.ts';
import { paramsOf } from './params.ts';
import { toolSchemas } from './tool-schemas.ts';
import { TOOLS, type ToolAnnotations, type ToolName } from './tools.ts';

interface ToolEntry {
  schema: z.ZodType<unknown, unknown>;
  run(args: never, call: CallContext): Promise<ToolAnswer>;
}

const callParams = once(() => z.looseObject({ name: z.string(), arguments: z.record(z.string(), z.unknown()).optional() }));

export function toolMethods(backend: GroundworkBackend, options: ServerOptions): Record<string, Method> {
  // Built when a tools/ method asks, not for every request (each POST /mcp makes a server).
  const table = once(() => toolTable(backend));
  const annotations = (name: ToolName): ToolAnnotations => ({ ...TOOLS[name].annotations, openWorldHint: TOOLS[name].openWorld === 'always' || (TOOLS[name].openWorld === 'remote' && options.where === 'remote') });

  /**
   * The list for one day, built once: only `remember`'s default review date moves, with the day.
   * A long-lived server (`groundwork mcp`) answers every tools/list with the same frozen array, and
   * a layer above it can keep what it makes of it by its identity (cli/mcp-local-tools).
   */
  let listedOn: { today: string; tools: readonly unknown[] } | undefined;
  const toolList = (today: string): readonly unknown[] => {
    if (listedOn?.today !== today) {
      const tools = [...table().keys()].map((name) => {
        const schemas = toolSchemas(name, today);
        return { name, title: TOOLS[name].title, description: TOOLS[name].description, icons: groundworkIcons(), inputSchema: schemas.input, outputSchema: schemas.output, annotations: annotations(name) };
      });
      listedOn = { today, tools: Object.freeze(tools) };
    }
    return listedOn.tools;
  };

  return {
    'tools/list': async (params, call) => {
      refuseCursor(params, 'the tool list');
      return { tools: toolList(backend.today()), ...cacheHints(call, STABLE_TTL_MS, 'public') };
    },
    'tools/call': async (params, call) => {
      const request = paramsOf(callParams(), params);
      const tools = table();
      const tool = tools.get(request.name as ToolName);
      if (!tool) throw new RpcError(RPC.invalidParams, `Unknown tool: ${request.name.slice(0, 100)}; this server's tools are ${[...tools.keys()].join(', ')}`);
      const given = request.arguments ?? {};
      // assemble_context's default client is the one the host names itself as (mcp/client-info).
      const args = await tool.schema.safeParseAsync(request.name === 'assemble_context' ? withMcpClient(given, call.client) : given);
      if (!args.success) return toolResult({ text: `Invalid arguments for tool ${request.name}: ${describeIssues(args.error, '')}`, isError: true });
      try {
        return toolResult(await tool.run(args.data as never, call));
      } catch (error) {
        // The backends answer every failure a model can act on; a throw is ours.
        options.log(`mcp tool ${request.name} failed`, error);
        return toolResult({ text: `${request.name} failed with an internal error; the details are in the service log.`, isError: true });
      }
    },
  };
}

/** The tools this backend offers, in catalog order; `context_for_paths` only where tasks have later turns. */
function toolTable(backend: GroundworkBackend): Map<ToolName, ToolEntry> {
  const { contextForPaths } = backend;
  const entries: Array<[ToolName, ToolEntry | undefined]> = [
    ['assemble_context', { schema: TOOLS.assemble_context.input(), run: (args, call) => backend.assembleContext(args, call) }],
    ['get_turn', { schema: TOOLS.get_turn.input(), run: (args, call) => backend.getTurn(args, call) }],
    ['context_for_paths', contextForPaths ? { schema: TOOLS.context_for_paths.input(), run: (args, call) => contextForPaths(args, call) } : undefined],
    ['check_freshness', { schema: TOOLS.check_freshness.input(), run: (args, call) => backend.checkFreshness(args, call) }],
    ['check_before', { schema: TOOLS.check_before.input(), run: (args, call) => backend.checkBefore(args, call) }],
    ['read_skill', { schema: TOOLS.read_skill.input(), run: (args, call) => backend.readSkill(args, call) }],
    ['rules_for_paths', { schema: TOOLS.rules_for_paths.input(), run: (args, call) => backend.rulesForPaths(args, call) }],
    ['remember', { schema: TOOLS.remember.input(backend.today()), run: (args, call) => backend.remember(args, call) }],
    ['recall', { schema: TOOLS.recall.input(), run: (args, call) => backend.recall(args, call) }],
    ['retire_knowledge', { schema: TOOLS.retire_knowledge.input(), run: (args, call) => backend.retireKnowledge(args, call) }],
    ['post_followup', { schema: TOOLS.post_followup.input(), run: (args, call) => backend.postFollowup(args, call) }],
  ];
  return new Map(entries.filter((entry): entry is [ToolName, ToolEntry] => entry[1] !== undefined));
}

function toolResult(answer: ToolAnswer): Record<string, unknown> {
  return {
    content: [{ type: 'text', text: answer.text }],
    ...(answer.structured ? { structuredContent: answer.structured } : {}),
    ...(answer.isError ? { isError: true } : {}),
  };
}

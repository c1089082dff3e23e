/**
 * @module mcp/resource-methods
 * `resources/list`, `resources/templates/list` and `resources/read`: a task's turns and the rules
 * and skill files it read (`groundwork://tasks/…`, mcp/uris), and the files of the skills the
 * skills extension serves (`skill://…`, mcp/skill-uris). What this caller has no such resource for
 * is not found: -32002 under the legacy versions, -32602 under 2026-07-28 ("Change resource not
 * found error code from -32002 to -32602", its changelog).
 */
import * as z from 'zod';
import { once } from '../lib/once.ts';
import type { GroundworkBackend, ResourceAnswer } from './backend.ts';
import { cacheHints, PINNED_TTL_MS, refuseCursor, STABLE_TTL_MS } from './cache-hints.ts';
import type { CallContext } from './call-context.ts';
import { RPC, RpcError } from './json-rpc.ts';
import type { Method, ServerOptions } from './methods.ts';
import { paramsOf } from './params.ts';
import { SOURCE_TEMPLATE, TURN_TEMPLATE } from './uris.ts';

export const RESOURCE_TEMPLATES = [
  { name: 'turn', uriTemplate: TURN_TEMPLATE.template, title: 'A turn of a task', description: 'The assembled turn as JSON: system blocks, transcript items, provider outcomes, entries with their sources, digest.', mimeType: 'application/json' },
  { name: 'source', uriTemplate: SOURCE_TEMPLATE.template, title: 'A rules or skill file a task read', description: 'The file as the task read it, at its pinned commit; _meta names the commit and the blob.', mimeType: 'text/markdown' },
] as const;

const readParams = once(() => z.looseObject({ uri: z.string() }));

export function resourceMethods(backend: GroundworkBackend, options: ServerOptions): Record<string, Method> {
  return {
    'resources/list': async (params, call) => {
      refuseCursor(params, 'the resource list');
      const turns = await backend.listTurns();
      // Listed per caller and changing with every new task: private, and never taken as current.
      return { resources: turns.map((resource) => ({ title: RESOURCE_TEMPLATES[0].title, description: RESOURCE_TEMPLATES[0].description, ...resource })), ...cacheHints(call, 0, 'private') };
    },
    'resources/templates/list': async (params, call) => {
      refuseCursor(params, 'the template list');
      return { resourceTemplates: RESOURCE_TEMPLATES, ...cacheHints(call, STABLE_TTL_MS, 'public') };
    },
    'resources/read': async (params, call) => {
      const { uri } = paramsOf(readParams(), params);
      const result = await read(uri, backend, options, call);
      const contents = 'text' in result ? { text: result.text } : { blob: result.blob };
      return { contents: [{ uri, mimeType: result.mimeType, ...contents, ...(result.meta ? { _meta: result.meta } : {}) }], ...cacheHints(call, result.ttlMs ?? PINNED_TTL_MS, 'private') };
    },
  };
}

async function read(uri: string, backend: GroundworkBackend, options: ServerOptions, call: CallContext): Promise<Extract<ResourceAnswer, { ok: true }>> {
  const notFound = (message: string) => new RpcError(call.era === 'modern' ? RPC.invalidParams : RPC.resourceNotFound, message, { uri: uri.slice(0, 200) });
  const kind = uri.startsWith('skill://') ? 'skill' : /^groundwork:\/\/tasks\/[^/]*\/(turns|sources)\//.exec(uri)?.[1];
  if (!kind) throw notFound(`Resource ${uri.slice(0, 200)} not found: this server's resources are ${RESOURCE_TEMPLATES.map((template) => template.uriTemplate).join(' and ')}, and skill:// files`);
  let result: ResourceAnswer;
  try {
    if (kind === 'skill') result = await backend.readSkillFile(uri);
    else if (kind === 'turns') {
      const parsed = TURN_TEMPLATE.parse(uri);
      result = parsed.ok ? await backend.readTurn(parsed.taskId, parsed.turn) : parsed;
    } else {
      const parsed = SOURCE_TEMPLATE.parse(uri);
      result = parsed.ok ? await backend.readSource(parsed.taskId, parsed.path) : parsed;
    }
  } catch (error) {
    options.log(`mcp resource ${uri} failed`, error);
    throw new RpcError(RPC.internalError, `reading ${uri.slice(0, 200)} failed with an internal error; the details are in the service log`);
  }
  if (!result.ok) throw result.failed ? new RpcError(RPC.internalError, result.message) : notFound(result.message);
  return result;
}

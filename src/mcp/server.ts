/**
 * @module mcp/server
 * The Groundwork MCP server: its tools, resources and skills over a backend (mcp/backend), the
 * same for the remote server on the Worker and the local one `groundwork mcp` runs, speaking both
 * eras of the protocol (mcp/request-era) to any client:
 *
 * - 2026-07-28 ("modern"): no handshake; each request carries its version and the client's
 *   capabilities in `_meta`; `server/discover` says what this server speaks and offers; every
 *   result says `resultType: "complete"` and names the server in `_meta`
 *   (`io.modelcontextprotocol/serverInfo`); lists and reads carry cache hints (mcp/cache-hints).
 *   `initialize` and `ping` are gone from that version: asked for, they are unknown methods.
 * - 2025-11-25 and earlier ("legacy"): `initialize` agrees a version and introduces the client;
 *   `ping` answers.
 *
 * A server answers one JSON-RPC message at a time; a transport makes one per request (the
 * Worker's stateless HTTP: nothing survives the request) or one per process (stdio: what a legacy
 * `initialize` said is remembered for the process, as that era scopes it).
 *
 * The protocol is implemented here rather than with the official SDK's server: what this server
 * needs of it is small, the SDK's server was a quarter of the Worker bundle's growth when it was
 * used (issue 28), and the measurement of the SDK's 2.x server is in the issue-53 note. The tests
 * talk to it with the SDK's own clients (1.x for the legacy era, 2.x for the modern one).
 *
 * Skills are not offered as MCP prompts: prompts are listed for the whole server, while a skills
 * index belongs to one task at one commit. They are served by the skills extension
 * (mcp/skill-methods), and a model reads one of its task's with `read_skill`.
 */
import * as z from 'zod';
import { once } from '../lib/once.ts';
import { groundworkVersion } from '../lib/version.ts';
import type { GroundworkBackend } from './backend.ts';
import { cacheHints, STABLE_TTL_MS } from './cache-hints.ts';
import { clientInfoOf, type CallContext, type ClientInfo } from './call-context.ts';
import { completionMethods } from './completion-methods.ts';
import { groundworkIcons } from './icons.ts';
import { errorAnswer, LEGACY_VERSIONS, PROTOCOL_VERSIONS, RPC, RpcError, type JsonRpcAnswer, type JsonRpcMessage } from './json-rpc.ts';
import type { Method, ServerOptions } from './methods.ts';
import { paramsOf } from './params.ts';
import { META, requestEra } from './request-era.ts';
import { resourceMethods } from './resource-methods.ts';
import { SKILLS_EXTENSION, skillMethods } from './skill-methods.ts';
import { toolMethods } from './tool-methods.ts';

export type { ServerOptions } from './methods.ts';

export interface GroundworkMcpServer {
  /** The answer to a request; undefined for a notification or a client's response, which get none. */
  answer(message: JsonRpcMessage): Promise<JsonRpcAnswer | undefined>;
}

const instructions = (paths: boolean) => `Groundwork assembles the context a coding agent should start a task from: the repository's rules (AGENTS.md and the like along the working directory), its skills, and what the team recorded, each labeled with path@commit.
Call assemble_context once at the start of a task, with the task's request; read what it returns before you plan. ${paths ? 'When you move to other paths, call context_for_paths. ' : ''}Before pushing, merging or reporting the task done, call check_before with that action (check_freshness says which rules and skill files changed). Read a skill the index lists with read_skill. remember records what the team should know next time (with its source); recall lists it.`;

const serverInfo = once(() => ({ name: 'groundwork', title: 'Groundwork', version: groundworkVersion, icons: groundworkIcons() }));

/**
 * No listChanged or subscribe: nothing here pushes, so there is no `subscriptions/listen` either.
 * `extensions` is 2026-07-28's; a legacy client that does not know it ignores it.
 */
const capabilities = () => ({ tools: {}, resources: {}, completions: {}, extensions: { [SKILLS_EXTENSION]: {} } });

// Built on the first MCP request, not at the Worker's start-up.
const initializeParams = once(() => z.looseObject({ protocolVersion: z.string(), clientInfo: z.unknown().optional() }));

export function createGroundworkServer(backend: GroundworkBackend, options: ServerOptions): GroundworkMcpServer {
  /** What a legacy `initialize` agreed, for the rest of this server's life (a stdio process's). */
  let legacy: { version: string; client?: ClientInfo } | undefined;

  const shared: Record<string, Method> = { ...toolMethods(backend, options), ...resourceMethods(backend, options), ...completionMethods(backend), ...skillMethods(backend) };
  const legacyOnly: Record<string, Method> = {
    initialize: async (params) => {
      const { protocolVersion, clientInfo } = paramsOf(initializeParams(), params);
      const version = (LEGACY_VERSIONS as readonly string[]).includes(protocolVersion) ? protocolVersion : LEGACY_VERSIONS[0];
      const client = clientInfoOf(clientInfo);
      legacy = { version, ...(client ? { client } : {}) };
      return { protocolVersion: version, capabilities: capabilities(), serverInfo: serverInfo(), instructions: instructions(backend.contextForPaths !== undefined) };
    },
    ping: async () => ({}),
  };
  const modernOnly: Record<string, Method> = {
    'server/discover': async (_params, call) => ({
      supportedVersions: PROTOCOL_VERSIONS,
      capabilities: capabilities(),
      instructions: instructions(backend.contextForPaths !== undefined),
      ...cacheHints(call, STABLE_TTL_MS, 'public'),
    }),
  };
  const eras = { legacy: { ...shared, ...legacyOnly }, modern: { ...shared, ...modernOnly } };

  return {
    async answer(message) {
      if (message.kind !== 'request') return undefined;
      const { id, method, params } = message.request;
      let call: CallContext;
      try {
        const era = requestEra(method, params);
        call = era.era === 'modern' ? { era: 'modern', protocolVersion: era.version, ...(era.client ? { client: era.client } : {}) } : { era: 'legacy', ...(legacy ? { protocolVersion: legacy.version, ...(legacy.client ? { client: legacy.client } : {}) } : {}) };
      } catch (error) {
        if (error instanceof RpcError) return errorAnswer(id, error.code, error.message, error.data);
        throw error;
      }
      const methods = eras[call.era];
      const handler = Object.hasOwn(methods, method) ? methods[method] : undefined;
      if (!handler) return errorAnswer(id, RPC.methodNotFound, `Method not found: ${method.slice(0, 100)}${call.era === 'modern' && Object.hasOwn(legacyOnly, method) ? ' (2026-07-28 has no such method; it was part of the initialize-based versions)' : ''}`);
      try {
        const result = await handler(params ?? {}, call);
        return { jsonrpc: '2.0', id, result: call.era === 'modern' ? modernResult(result) : result };
      } catch (error) {
        if (error instanceof RpcError) return errorAnswer(id, error.code, error.message, error.data);
        options.log(`mcp ${method} failed`, error);
        return errorAnswer(id, RPC.internalError, `${method} failed with an internal error; the details are in the service log`);
      }
    },
  };
}

/**
 * A 2026-07-28 result: its type, and the server named in `_meta` ("Per-response protocol fields");
 * for a layer around this server (cli/mcp-local-tools) that answers a request itself.
 */
export function modernResult(result: Record<string, unknown>): Record<string, unknown> {
  const meta = result['_meta'];
  return { ...result, resultType: 'complete', _meta: { ...(typeof meta === 'object' && meta !== null ? meta : {}), [META.serverInfo]: serverInfo() } };
}

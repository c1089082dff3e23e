/**
 * @module mcp/methods
 * The shape of one MCP method handler, shared by the method groups (mcp/tool-methods,
 * mcp/resource-methods, mcp/skill-methods) that mcp/server dispatches to. A handler gets the
 * request's params (an object; `{}` when absent) and its call context, and answers the result's
 * data; it throws an RpcError to answer a JSON-RPC error instead.
 */
import type { CallContext } from './call-context.ts';

export interface ServerOptions {
  /** `remote`: tasks on the service, repositories read over the network. `local`: this machine's repository. */
  where: 'remote' | 'local';
  /** Where an unexpected error's details go (never to the client): stderr locally, the Worker's log remotely. */
  log(message: string, error: unknown): void;
}

export type Method = (params: Record<string, unknown>, call: CallContext) => Promise<Record<string, unknown>>;

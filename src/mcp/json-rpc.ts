/**
 * @module mcp/json-rpc
 * JSON-RPC 2.0 as MCP uses it: what a message is, the error codes, and an error a method handler
 * throws to answer with one. Both transports (mcp/http-handler, cli/mcp's stdio) take messages
 * through `parseMessage` and answer what mcp/server returns.
 */
/** The protocol versions this server speaks, newest first; `initialize` answers the client's if listed, else the newest. */
export const PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const;

export const RPC = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
  /** MCP's code for a resource that does not exist. */
  resourceNotFound: -32002,
  /** Transport-level refusals (headers, size), as the MCP SDK's transports use it. */
  transport: -32000,
} as const;

export type JsonRpcId = string | number;
export interface JsonRpcRequest {
  jsonrpc: '2.0';
  id: JsonRpcId;
  method: string;
  params?: Record<string, unknown>;
}
export interface JsonRpcNotification {
  jsonrpc: '2.0';
  method: string;
  params?: Record<string, unknown>;
}
export type JsonRpcMessage = { kind: 'request'; request: JsonRpcRequest } | { kind: 'notification'; notification: JsonRpcNotification } | { kind: 'response' };

export interface JsonRpcError {
  jsonrpc: '2.0';
  id: JsonRpcId | null;
  error: { code: number; message: string; data?: unknown };
}
export type JsonRpcAnswer = { jsonrpc: '2.0'; id: JsonRpcId; result: Record<string, unknown> } | JsonRpcError;

/** What a method handler throws to answer a JSON-RPC error instead of a result. */
export class RpcError extends Error {
  readonly code: number;
  readonly data: unknown;
  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.code = code;
    this.data = data;
  }
}

export const errorAnswer = (id: JsonRpcId | null, code: number, message: string, data?: unknown): JsonRpcError => ({ jsonrpc: '2.0', id, error: { code, message, ...(data === undefined ? {} : { data }) } });

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isId = (value: unknown): value is JsonRpcId => typeof value === 'string' || Number.isSafeInteger(value);

/**
 * One decoded JSON value as a JSON-RPC message, or undefined when it is none. Params are by name
 * (an object), as MCP sends them. A client's answer to a server request is a `response`: this
 * server sends none, so it is accepted and ignored.
 */
export function parseMessage(value: unknown): JsonRpcMessage | undefined {
  if (!isRecord(value) || value['jsonrpc'] !== '2.0') return undefined;
  const { id, method, params } = value;
  if (typeof method === 'string') {
    if (params !== undefined && !isRecord(params)) return undefined;
    const body = { jsonrpc: '2.0' as const, method, ...(params === undefined ? {} : { params }) };
    if (!('id' in value)) return { kind: 'notification', notification: body };
    return isId(id) ? { kind: 'request', request: { ...body, id } } : undefined;
  }
  if ((id === null || isId(id)) && ('result' in value || 'error' in value)) return { kind: 'response' };
  return undefined;
}

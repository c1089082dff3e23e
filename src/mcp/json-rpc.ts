/**
 * @module mcp/json-rpc
 * JSON-RPC 2.0 as MCP uses it: what a message is, the error codes, and an error a method handler
 * throws to answer with one. Both transports (mcp/http-handler, cli/mcp's stdio) take messages
 * through `parseMessage` and answer what mcp/server returns.
 *
 * Two eras of the protocol are spoken (see mcp/request-era): the modern one (2026-07-28: no
 * handshake, version and capabilities in each request's `_meta`) and the legacy ones, which open
 * with `initialize`. Error codes are the specification's: JSON-RPC's own, and from 2026-07-28 the
 * three MCP defines in its reserved range (-32020 to -32022). Codes from -32000 to -32019 are left
 * alone, as the 2026-07-28 base protocol asks of new implementations ("Error Codes",
 * docs/specification/2026-07-28/basic/index.mdx).
 */
/** Modern protocol versions this server speaks, newest first. */
export const MODERN_VERSIONS = ['2026-07-28'] as const;
/** Legacy (initialize-based) versions, newest first; `initialize` answers the client's if listed, else the newest. */
export const LEGACY_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const;
/** Every version, newest first: what `server/discover` and an UnsupportedProtocolVersionError list. */
export const PROTOCOL_VERSIONS: readonly string[] = [...MODERN_VERSIONS, ...LEGACY_VERSIONS];

export const isModernVersion = (version: string): boolean => (MODERN_VERSIONS as readonly string[]).includes(version);
export const isLegacyVersion = (version: string): boolean => (LEGACY_VERSIONS as readonly string[]).includes(version);

export const RPC = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
  /** 2025-11-25 and earlier: a resource that does not exist (2026-07-28 uses -32602 instead). */
  resourceNotFound: -32002,
  /** 2026-07-28: HTTP headers missing, malformed or not matching the body. */
  headerMismatch: -32020,
  /** 2026-07-28: the request needs a client capability it did not declare. */
  missingClientCapability: -32021,
  /** 2026-07-28: the request's protocol version is not one this server speaks. */
  unsupportedVersion: -32022,
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

/** `id` is absent when the request's could not be read (MCP's schema makes it optional rather than null). */
export interface JsonRpcError {
  jsonrpc: '2.0';
  id?: JsonRpcId;
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

export const errorAnswer = (id: JsonRpcId | null, code: number, message: string, data?: unknown): JsonRpcError => ({
  jsonrpc: '2.0',
  ...(id === null ? {} : { id }),
  error: { code, message, ...(data === undefined ? {} : { data }) },
});

export const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isId = (value: unknown): value is JsonRpcId => typeof value === 'string' || Number.isSafeInteger(value);

/**
 * One decoded JSON value as a JSON-RPC message, or undefined when it is none (answered -32600
 * Invalid Request: it was JSON, so not a parse error). Params are by name (an object), as MCP
 * sends them. A client's answer to a server request is a `response`: this server sends none, so
 * it is accepted and ignored.
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

/** The id of a value that is not a valid message but carries a usable one, so its error can be paired. */
export function readableId(value: unknown): JsonRpcId | null {
  return isRecord(value) && isId(value['id']) ? value['id'] : null;
}

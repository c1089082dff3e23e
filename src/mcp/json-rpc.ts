/**
 * @module mcp/json-rpc
 * JSON-RPC 2.0 as MCP uses it: what a message is, the error codes, and an error a method handler
 * throws to answer with one. Both transports (mcp/http-handler, cli/mcp's stdio) take messages
 * through `parseMessage` and answer what mcp/server returns.
 */
import * as z from 'zod';

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

const Id = z.union([z.string(), z.number().int()]);
const Params = z.record(z.string(), z.unknown()).optional();

const RequestSchema = z.object({ jsonrpc: z.literal('2.0'), id: Id, method: z.string(), params: Params });
const NotificationSchema = z.object({ jsonrpc: z.literal('2.0'), method: z.string(), params: Params });
// A client's answer to a server request; this server sends none, so they are accepted and ignored.
const ResponseSchema = z.object({ jsonrpc: z.literal('2.0'), id: Id.nullable(), result: z.unknown(), error: z.unknown() }).partial({ result: true, error: true });

export type JsonRpcId = z.output<typeof Id>;
export type JsonRpcRequest = z.output<typeof RequestSchema>;
export type JsonRpcNotification = z.output<typeof NotificationSchema>;
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

/** One decoded JSON value as a JSON-RPC message, or undefined when it is none. */
export function parseMessage(value: unknown): JsonRpcMessage | undefined {
  const request = RequestSchema.safeParse(value);
  if (request.success) return { kind: 'request', request: request.data };
  const notification = NotificationSchema.safeParse(value);
  if (notification.success && !(typeof value === 'object' && value !== null && 'id' in value)) return { kind: 'notification', notification: notification.data };
  const response = ResponseSchema.safeParse(value);
  if (response.success && (response.data.result !== undefined || response.data.error !== undefined)) return { kind: 'response' };
  return undefined;
}

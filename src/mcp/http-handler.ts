/**
 * @module mcp/http-handler
 * MCP's Streamable HTTP transport, stateless and answering JSON: one POST carries a message (a
 * legacy client may batch up to 100); requests get their answers in the body, a body of
 * notifications only gets 202. No session id is issued and no event stream opened: every tool
 * answers within its bound, so nothing streams, and any Worker instance answers any request.
 *
 * Checked in order, each refusal a JSON-RPC error with the HTTP status the transport names, never
 * a 500: Accept must list `application/json` and `text/event-stream` as media types (406);
 * Content-Type must be `application/json` (415); the body at most `maxBodyBytes` (413), JSON
 * (-32700) and a JSON-RPC message (-32600, as JSON-RPC answers valid JSON that is not a request);
 * then the MCP headers against the body (mcp/http-headers) and a 2026-07-28 request's `_meta`
 * (mcp/request-era), both 400. A 2026-07-28 method this server does not have is 404 with -32601
 * ("Streamable HTTP", Protocol Version Header), so a dual-era client can tell a modern server
 * that lacks the method from an old one.
 */
import { ApiError } from '../http/errors.ts';
import { accepts, isMediaType } from '../http/media-type.ts';
import { readBodyBytes } from '../http/read-body.ts';
import { checkMcpHeaders } from './http-headers.ts';
import { errorAnswer, parseMessage, readableId, RPC, RpcError, type JsonRpcAnswer, type JsonRpcMessage } from './json-rpc.ts';
import { requestEra } from './request-era.ts';
import type { GroundworkMcpServer } from './server.ts';

const MAX_BATCH = 100;

/** Refusals of the protocol's own (version, headers, capabilities) are 400 over HTTP in every era. */
const BAD_REQUEST_CODES: ReadonlySet<number> = new Set([RPC.headerMismatch, RPC.missingClientCapability, RPC.unsupportedVersion]);

export async function answerMcpRequest(request: Request, server: GroundworkMcpServer, maxBodyBytes: number): Promise<Response> {
  const accept = request.headers.get('accept');
  if (!accepts(accept, 'application/json') || !accepts(accept, 'text/event-stream')) return refuse(406, RPC.invalidRequest, 'Not Acceptable: the Accept header must list both application/json and text/event-stream');
  if (!isMediaType(request.headers.get('content-type'), 'application/json')) return refuse(415, RPC.invalidRequest, 'Unsupported Media Type: Content-Type must be application/json (UTF-8)');

  let value: unknown;
  try {
    const bytes = await readBodyBytes(request, maxBodyBytes);
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes));
  } catch (error) {
    if (error instanceof ApiError) return refuse(413, RPC.invalidRequest, `Payload Too Large: the body exceeds ${maxBodyBytes} bytes`);
    return refuse(400, RPC.parseError, 'Parse error: the body is not valid JSON');
  }

  if (!Array.isArray(value)) {
    const message = parseMessage(value);
    if (!message) return refuse(400, RPC.invalidRequest, 'Invalid Request: the body is not a JSON-RPC 2.0 request or notification', readableId(value));
    return answerOne(request.headers, message, server);
  }
  // Batches are JSON-RPC's and 2025-03-26's; 2026-07-28 (like 2025-06-18) sends one message per POST.
  const header = request.headers.get('mcp-protocol-version');
  if (header !== null && header !== '2025-03-26' && header !== '2024-11-05') return refuse(400, RPC.invalidRequest, `Invalid Request: a protocol ${header.slice(0, 40)} POST carries one JSON-RPC message, not a batch`);
  if (value.length === 0 || value.length > MAX_BATCH) return refuse(400, RPC.invalidRequest, `Invalid Request: a batch holds 1 to ${MAX_BATCH} messages`);
  const messages: JsonRpcMessage[] = [];
  for (const [index, item] of value.entries()) {
    const message = parseMessage(item);
    if (!message) return refuse(400, RPC.invalidRequest, `Invalid Request: message ${index} of the batch is not a JSON-RPC 2.0 message`);
    messages.push(message);
  }
  if (messages.some((message) => message.kind === 'request' && message.request.method === 'initialize')) return refuse(400, RPC.invalidRequest, 'Invalid Request: initialize must be sent alone');
  const answers = (await Promise.all(messages.map((message) => server.answer(message)))).filter((answer): answer is JsonRpcAnswer => answer !== undefined);
  return answers.length === 0 ? new Response(null, { status: 202 }) : Response.json(answers);
}

async function answerOne(headers: Headers, message: JsonRpcMessage, server: GroundworkMcpServer): Promise<Response> {
  if (message.kind === 'response') return new Response(null, { status: 202 });
  const id = message.kind === 'request' ? message.request.id : null;
  const checked = checkMcpHeaders(headers, message);
  if (!checked.ok) return rpcRefusal(400, id, checked.error);
  if (checked.era === 'modern' && message.kind === 'request') {
    try {
      requestEra(message.request.method, message.request.params);
    } catch (error) {
      if (error instanceof RpcError) return rpcRefusal(400, id, error);
      throw error;
    }
  }
  const answer = await server.answer(message);
  if (answer === undefined) return new Response(null, { status: 202 });
  const code = 'error' in answer ? answer.error.code : undefined;
  const status = code === undefined ? 200 : BAD_REQUEST_CODES.has(code) ? 400 : code === RPC.methodNotFound && checked.era === 'modern' ? 404 : 200;
  return Response.json(answer, { status });
}

function rpcRefusal(status: number, id: JsonRpcAnswer['id'] | null, error: RpcError): Response {
  return Response.json(errorAnswer(id ?? null, error.code, error.message, error.data), { status });
}

function refuse(status: number, code: number, message: string, id: string | number | null = null): Response {
  return Response.json(errorAnswer(id, code, message), { status });
}

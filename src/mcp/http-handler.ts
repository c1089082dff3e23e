/**
 * @module mcp/http-handler
 * MCP's Streamable HTTP transport, stateless and answering JSON: one POST carries a message (or a
 * batch of up to 100); requests get their answers in the body, a body of notifications only gets
 * 202. No session id is issued and no event stream opened: every tool answers within its bound,
 * so nothing streams, and any Worker instance answers any request. What the transport refuses
 * (headers, size, not JSON-RPC) is a JSON-RPC error with the HTTP status the protocol's
 * transports use, never a 500.
 */
import { ApiError } from '../http/errors.ts';
import { readBodyBytes } from '../http/read-body.ts';
import { errorAnswer, parseMessage, PROTOCOL_VERSIONS, RPC, type JsonRpcAnswer, type JsonRpcMessage } from './json-rpc.ts';
import type { GroundworkMcpServer } from './server.ts';

const MAX_BATCH = 100;

export async function answerMcpRequest(request: Request, server: GroundworkMcpServer, maxBodyBytes: number): Promise<Response> {
  const accept = request.headers.get('accept') ?? '';
  // A list of media types: each must appear, as the transport specification asks of a client.
  if (!accept.includes('application/json') || !accept.includes('text/event-stream')) return refuse(406, RPC.transport, 'Not Acceptable: the Accept header must list both application/json and text/event-stream');
  if (!/^application\/json\s*(;|$)/i.test(request.headers.get('content-type') ?? '')) return refuse(415, RPC.transport, 'Unsupported Media Type: Content-Type must be application/json');
  const version = request.headers.get('mcp-protocol-version');
  if (version !== null && !(PROTOCOL_VERSIONS as readonly string[]).includes(version)) return refuse(400, RPC.transport, `Bad Request: unsupported MCP-Protocol-Version ${version.slice(0, 40)} (this server speaks ${PROTOCOL_VERSIONS.join(', ')})`);

  let value: unknown;
  try {
    const bytes = await readBodyBytes(request, maxBodyBytes);
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes));
  } catch (error) {
    if (error instanceof ApiError) return refuse(413, RPC.transport, `Payload Too Large: the body exceeds ${maxBodyBytes} bytes`);
    return refuse(400, RPC.parseError, 'Parse error: the body is not valid JSON');
  }
  const batch = Array.isArray(value);
  const values: unknown[] = Array.isArray(value) ? value : [value];
  if (values.length === 0 || values.length > MAX_BATCH) return refuse(400, RPC.invalidRequest, `Invalid Request: a batch holds 1 to ${MAX_BATCH} messages`);
  const messages: JsonRpcMessage[] = [];
  for (const [index, item] of values.entries()) {
    const message = parseMessage(item);
    if (!message) return refuse(400, RPC.parseError, `Parse error: ${batch ? `message ${index}` : 'the body'} is not a JSON-RPC 2.0 message`);
    messages.push(message);
  }
  if (messages.length > 1 && messages.some((message) => message.kind === 'request' && message.request.method === 'initialize')) return refuse(400, RPC.invalidRequest, 'Invalid Request: initialize must be sent alone');

  const answers = (await Promise.all(messages.map((message) => server.answer(message)))).filter((answer): answer is JsonRpcAnswer => answer !== undefined);
  if (answers.length === 0) return new Response(null, { status: 202 });
  return Response.json(batch ? answers : answers[0]);
}

function refuse(status: number, code: number, message: string): Response {
  return Response.json(errorAnswer(null, code, message), { status });
}

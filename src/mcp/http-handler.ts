/**
 * @module mcp/http-handler
 * One MCP request over the SDK's web-standard Streamable HTTP transport, stateless: a new server
 * and transport per request (the SDK refuses to reuse a stateless transport), closed when the
 * answer is ready. Loaded by routes/mcp on the first `/mcp` request only, so the SDK's module
 * set-up (a few hundred zod schemas) is not paid by a Worker that never serves MCP.
 */
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { GroundworkBackend } from './backend.ts';
import { createGroundworkServer, type ServerOptions } from './server.ts';

export async function answerMcpRequest(request: Request, backend: GroundworkBackend, options: ServerOptions & { maxBodyBytes: number }): Promise<Response> {
  const server = createGroundworkServer(backend, options);
  // JSON answers, not an event stream: every tool answers within its bound, so nothing streams.
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true, maxRequestBodySize: options.maxBodyBytes });
  try {
    await server.connect(transport);
    return await transport.handleRequest(request);
  } finally {
    await server.close();
  }
}

/**
 * @module test/support/mcp-stdio-bridge
 * `groundwork mcp` (the built CLI, over stdio) behind a loopback HTTP endpoint, so the official
 * conformance suite, which speaks Streamable HTTP only, can test the local server. The endpoint is
 * Groundwork's own transport (mcp/http-handler: Accept, Content-Type, the MCP headers checked
 * against the body, a 2026-07-28 request's `_meta`); every message it accepts goes to the child
 * process as one line on stdin, and the answer with its id comes back from stdout. So what the
 * suite checks of the protocol (discover, eras, tools, resources, skills, errors) is answered by
 * the stdio server itself; only the HTTP framing is the bridge's, and it is the Worker's code.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { answerMcpRequest } from '../../src/mcp/http-handler.ts';
import type { JsonRpcAnswer, JsonRpcMessage } from '../../src/mcp/json-rpc.ts';
import type { GroundworkMcpServer } from '../../src/mcp/server.ts';

export interface StdioBridge {
  origin: string;
  /** What the server wrote to stderr so far. */
  stderr(): string;
  close(): Promise<void>;
}

/** `cwd`: the working repository the server serves. */
export async function startStdioBridge(cli: string, cwd: string, env: Record<string, string> = {}): Promise<StdioBridge> {
  const child = spawn(process.execPath, [cli, 'mcp'], { cwd, stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let said = '';
  child.stderr.on('data', (chunk: Buffer) => (said += chunk.toString()));
  const waiting = new Map<string, (answer: JsonRpcAnswer) => void>();
  let sequence = 0;
  createInterface({ input: child.stdout }).on('line', (line) => {
    const answer = JSON.parse(line) as JsonRpcAnswer;
    const key = 'id' in answer && answer.id !== undefined ? String(answer.id) : undefined;
    const resolve = key === undefined ? undefined : waiting.get(key);
    if (key !== undefined && resolve) {
      waiting.delete(key);
      resolve(answer);
    }
  });

  // Ids are rewritten on the way in, so concurrent HTTP requests with the same id stay apart.
  const server: GroundworkMcpServer = {
    answer(message: JsonRpcMessage) {
      if (message.kind === 'response') return Promise.resolve(undefined);
      if (message.kind === 'notification') {
        child.stdin.write(`${JSON.stringify(message.notification)}\n`);
        return Promise.resolve(undefined);
      }
      const { id } = message.request;
      const key = `bridge-${++sequence}`;
      return new Promise<JsonRpcAnswer>((resolve) => {
        waiting.set(key, (answer) => resolve({ ...answer, id }));
        child.stdin.write(`${JSON.stringify({ ...message.request, id: key })}\n`);
      });
    },
  };

  const http = createServer(async (incoming, outgoing) => {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const sent = new Headers();
    for (const [name, value] of Object.entries(incoming.headers)) if (typeof value === 'string') sent.set(name, value);
    const body = incoming.method === 'GET' || incoming.method === 'HEAD' ? undefined : Buffer.concat(chunks);
    const response =
      incoming.method === 'POST'
        ? await answerMcpRequest(new Request(`http://${incoming.headers.host ?? 'localhost'}${incoming.url ?? '/'}`, { method: 'POST', headers: sent, ...(body ? { body } : {}) }), server, 1024 * 1024)
        : new Response(null, { status: 405, headers: { allow: 'POST' } });
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => (headers[name] = value));
    outgoing.writeHead(response.status, headers);
    outgoing.end(Buffer.from(await response.arrayBuffer()));
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    origin: `http://localhost:${port}`,
    stderr: () => said,
    close: async () => {
      await new Promise<void>((resolve) => http.close(() => resolve()));
      child.stdin.end();
      await new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', () => resolve())));
    },
  };
}

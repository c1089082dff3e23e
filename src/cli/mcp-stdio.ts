/**
 * @module cli/mcp-stdio
 * MCP's stdio transport: one JSON-RPC message per line in, one answer per line out. Requests are
 * answered as they finish, not in order (JSON-RPC pairs answers by id), so a slow
 * `assemble_context` does not hold up a `ping`. A line that is not JSON gets a parse error
 * (-32700); JSON that is not a JSON-RPC message gets Invalid Request (-32600), with its id when it
 * has a usable one; a line over the cap is refused as an invalid request and skipped, never held.
 * Serving ends when the input ends and every answer is written.
 *
 * A result a server hands out again and again unchanged (frozen: the local server's tools/list,
 * cli/mcp-local-tools) is serialised once and kept by its identity, so a call costs no
 * JSON.stringify of its 33 KB (issue 56: a tools/list under 1 ms of the server's CPU).
 */
import type { Readable } from 'node:stream';
import { errorAnswer, parseMessage, readableId, RPC, type JsonRpcAnswer } from '../mcp/json-rpc.ts';
import type { GroundworkMcpServer } from '../mcp/server.ts';

export async function serveStdio(input: Readable, write: (line: string) => void, server: GroundworkMcpServer, maxLineBytes: number): Promise<void> {
  const pending = new Set<Promise<void>>();
  const answer = (line: string) => {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      write(`${JSON.stringify(errorAnswer(null, RPC.parseError, 'Parse error: the line is not valid JSON'))}\n`);
      return;
    }
    const message = parseMessage(value);
    if (!message) {
      write(`${JSON.stringify(errorAnswer(readableId(value), RPC.invalidRequest, 'Invalid Request: the line is not a JSON-RPC 2.0 request or notification'))}\n`);
      return;
    }
    const task = server.answer(message).then((reply) => {
      if (reply) write(lineOf(reply));
    });
    pending.add(task);
    void task.finally(() => pending.delete(task));
  };

  let buffered: Buffer[] = [];
  let size = 0;
  let skipping = false;
  for await (const chunk of input as AsyncIterable<Buffer>) {
    let start = 0;
    for (let newline = chunk.indexOf(10); newline !== -1; newline = chunk.indexOf(10, start)) {
      const piece = chunk.subarray(start, newline);
      start = newline + 1;
      if (skipping || size + piece.byteLength > maxLineBytes) {
        if (!skipping) write(`${JSON.stringify(errorAnswer(null, RPC.invalidRequest, `Invalid Request: a line exceeds ${maxLineBytes} bytes`))}\n`);
        skipping = false;
      } else {
        const line = Buffer.concat([...buffered, piece]).toString('utf8').trim();
        if (line !== '') answer(line);
      }
      buffered = [];
      size = 0;
    }
    const rest = chunk.subarray(start);
    if (skipping || size + rest.byteLength > maxLineBytes) {
      if (!skipping) write(`${JSON.stringify(errorAnswer(null, RPC.invalidRequest, `Invalid Request: a line exceeds ${maxLineBytes} bytes`))}\n`);
      skipping = true;
      buffered = [];
      size = 0;
    } else if (rest.byteLength > 0) {
      buffered.push(rest);
      size += rest.byteLength;
    }
  }
  const last = Buffer.concat(buffered).toString('utf8').trim();
  if (!skipping && last !== '') answer(last);
  await Promise.all(pending);
}

/** Frozen results serialised, by identity. */
const frozenResults = new WeakMap<object, string>();

/** The answer's line: JSON.stringify's bytes, with a frozen result's text reused (the keys' order is the answer's own). */
export function lineOf(reply: JsonRpcAnswer): string {
  const keys = Object.keys(reply);
  if (!('result' in reply) || !Object.isFrozen(reply.result) || keys.length !== 3 || keys[0] !== 'jsonrpc' || keys[1] !== 'id' || keys[2] !== 'result') return `${JSON.stringify(reply)}\n`;
  let text = frozenResults.get(reply.result);
  if (text === undefined) {
    text = JSON.stringify(reply.result);
    frozenResults.set(reply.result, text);
  }
  return `{"jsonrpc":${JSON.stringify(reply.jsonrpc)},"id":${JSON.stringify(reply.id)},"result":${text}}\n`;
}

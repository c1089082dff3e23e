/**
 * `groundwork mcp`'s stdio transport (cli/mcp-stdio) with a server whose answers the test
 * releases: lines split across chunks, answers in completion order, what is not a message, an
 * overlong line, the end of input. The real CLI over stdio is in cli-mcp.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { lineOf, serveStdio } from '../../src/cli/mcp-stdio.ts';
import type { JsonRpcAnswer, JsonRpcMessage } from '../../src/mcp/json-rpc.ts';
import type { GroundworkMcpServer } from '../../src/mcp/server.ts';

/** Answers `slow` only when released; everything else at once. Records what it was asked. */
function heldServer() {
  const asked: string[] = [];
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const server: GroundworkMcpServer = {
    async answer(message: JsonRpcMessage): Promise<JsonRpcAnswer | undefined> {
      if (message.kind !== 'request') return undefined;
      asked.push(message.request.method);
      if (message.request.method === 'slow') await released;
      return { jsonrpc: '2.0', id: message.request.id, result: { method: message.request.method } };
    },
  };
  return { server, asked, release };
}

function session(maxLineBytes = 1024) {
  const input = new PassThrough();
  const lines: string[] = [];
  const { server, asked, release } = heldServer();
  const seen: Array<() => void> = [];
  const write = (line: string) => {
    lines.push(line);
    for (const wake of seen.splice(0)) wake();
  };
  const done = serveStdio(input, write, server, maxLineBytes);
  /** Resolves once `n` lines have been written. */
  const written = async (n: number) => {
    while (lines.length < n) await new Promise<void>((resolve) => seen.push(resolve));
    return lines.slice(0, n).map((line) => JSON.parse(line) as Record<string, unknown>);
  };
  return { input, lines, asked, release, done, written };
}

describe('the stdio transport', () => {
  it('answers a line split across chunks, and a later quick request before an earlier slow one', async () => {
    const s = session();
    s.input.write('{"jsonrpc":"2.0","id":1,"met');
    s.input.write('hod":"slow"}\n{"jsonrpc":"2.0","id":2,"method":"ping"}\n');
    expect(await s.written(1)).toEqual([{ jsonrpc: '2.0', id: 2, result: { method: 'ping' } }]);
    s.release();
    expect((await s.written(2))[1]).toEqual({ jsonrpc: '2.0', id: 1, result: { method: 'slow' } });
    s.input.end();
    await s.done;
    expect(s.lines.every((line) => line.endsWith('\n') && !line.slice(0, -1).includes('\n'))).toBe(true);
  });

  it('answers what is not JSON with a parse error, JSON that is not a request as an invalid request (with its id when it has one), and goes on', async () => {
    const s = session();
    s.input.write('not json\n{"hello":"world"}\n{"jsonrpc":"2.0","id":4,"method":7}\n\n{"jsonrpc":"2.0","method":"notifications/initialized"}\n{"jsonrpc":"2.0","id":3,"method":"ping"}\n');
    expect(await s.written(4)).toEqual([
      { jsonrpc: '2.0', error: { code: -32700, message: expect.stringContaining('not valid JSON') } },
      { jsonrpc: '2.0', error: { code: -32600, message: expect.stringContaining('not a JSON-RPC 2.0 request') } },
      { jsonrpc: '2.0', id: 4, error: { code: -32600, message: expect.stringContaining('not a JSON-RPC 2.0 request') } },
      { jsonrpc: '2.0', id: 3, result: { method: 'ping' } },
    ]);
    s.input.end();
    await s.done;
    expect(s.asked).toEqual(['ping']);
  });

  it('refuses a line over the cap once, holds none of it, and answers the next line', async () => {
    const s = session(64);
    s.input.write(`{"jsonrpc":"2.0","id":1,"method":"${'x'.repeat(40)}`);
    s.input.write(`${'y'.repeat(200)}"}\n{"jsonrpc":"2.0","id":2,"method":"ping"}\n`);
    expect(await s.written(2)).toEqual([
      { jsonrpc: '2.0', error: { code: -32600, message: 'Invalid Request: a line exceeds 64 bytes' } },
      { jsonrpc: '2.0', id: 2, result: { method: 'ping' } },
    ]);
    s.input.end();
    await s.done;
    expect(s.asked).toEqual(['ping']);
  });

  it('answers a last line without a newline, and ends only when every answer is written', async () => {
    const s = session();
    s.input.end('{"jsonrpc":"2.0","id":1,"method":"slow"}');
    let ended = false;
    void s.done.then(() => (ended = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(ended).toBe(false);
    s.release();
    await s.done;
    expect(s.lines.map((line) => JSON.parse(line))).toEqual([{ jsonrpc: '2.0', id: 1, result: { method: 'slow' } }]);
  });
});

describe('an answer line', () => {
  const frozen = <T,>(value: T): T => {
    if (typeof value === 'object' && value !== null) {
      for (const inner of Object.values(value)) frozen(inner);
      Object.freeze(value);
    }
    return value;
  };

  it('is JSON.stringify of the answer, whether its result is frozen (and kept serialised) or not', () => {
    const result = frozen({ tools: [{ name: 'a', inputSchema: { type: 'object', properties: { x: { type: 'string', description: 'é "quoted" \u2028' } } } }], ttlMs: 5 });
    for (const id of [1, 'req-"7"', 0]) {
      const answer: JsonRpcAnswer = { jsonrpc: '2.0', id, result };
      expect(lineOf(answer)).toBe(`${JSON.stringify(answer)}\n`);
      // The second time from the kept text: the same bytes.
      expect(lineOf(answer)).toBe(`${JSON.stringify(answer)}\n`);
    }
    const open: JsonRpcAnswer = { jsonrpc: '2.0', id: 2, result: { changing: [1] } };
    expect(lineOf(open)).toBe(`${JSON.stringify(open)}\n`);
    (open.result['changing'] as number[]).push(2);
    expect(lineOf(open)).toBe('{"jsonrpc":"2.0","id":2,"result":{"changing":[1,2]}}\n');
    const error: JsonRpcAnswer = { jsonrpc: '2.0', id: 3, error: { code: -32601, message: 'Method not found' } };
    expect(lineOf(error)).toBe(`${JSON.stringify(error)}\n`);
  });
});

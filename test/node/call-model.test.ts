import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_CLI } from './cli-support.ts';

const ROOT = dirname(dirname(BUILT_CLI));
const BODY = { system: [{ type: 'text', text: 'You are a coding agent.' }], messages: [{ role: 'user', content: [{ type: 'text', text: 'Add a square root.' }] }], tools: [] };

/** `npm run -s call-model -- …` as the docs say to run it, with `env` over this process's. */
function callModel(args: string[], env: Record<string, string | undefined>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '-s', 'call-model', '--', ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('examples/call-model.ts', () => {
  let server: Server;
  let url = '';
  const asked: string[] = [];

  beforeAll(async () => {
    // Stands in for a Groundwork deployment's turn route: the contract is one GET.
    server = createServer((req, res) => {
      asked.push(`${req.method} ${req.url} ${req.headers.authorization}`);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(BODY));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('runs through npm on the pinned Node and, without a key, prints the body with a note saying why it was not sent', async () => {
    const run = await callModel(['task-1', '0', 'anthropic'], { GROUNDWORK_URL: url, GROUNDWORK_TOKEN: 'token-0123456789abcdef', ANTHROPIC_API_KEY: '' });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual(BODY);
    expect(run.stderr).toContain('ANTHROPIC_API_KEY is not set, so the anthropic request body is printed, not sent');
    expect(asked).toEqual(['GET /tasks/task-1/turns/0?format=anthropic Bearer token-0123456789abcdef']);
  });

  it('says how to run it when the token is missing', async () => {
    const run = await callModel(['task-1'], { GROUNDWORK_URL: url, GROUNDWORK_TOKEN: '' });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('usage: GROUNDWORK_URL=… GROUNDWORK_TOKEN=… npm run -s call-model -- <task id> [turn] [anthropic|openai-responses|openai-chat]');
  });
});

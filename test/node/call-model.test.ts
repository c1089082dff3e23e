import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import * as z from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chooseModel, DEFAULT_MODELS, sendRequest } from '../../examples/call-model.ts';
import type { FormattedRequest } from '../../src/context/formats/format.ts';
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

  it('says which model it would send to: the default, or the fourth argument over MODEL', async () => {
    const base = { GROUNDWORK_URL: url, GROUNDWORK_TOKEN: 'token-0123456789abcdef', ANTHROPIC_API_KEY: '', OPENAI_API_KEY: '' };
    const cases: Array<[string[], Record<string, string>, string]> = [
      // Each is a process through npm; the order of precedence itself is checked below, in-process.
      [['task-1', '0', 'anthropic'], { MODEL: '' }, DEFAULT_MODELS.anthropic],
      [['task-1', '0', 'anthropic', 'claude-haiku-5-5'], { MODEL: 'claude-opus-5-5' }, 'claude-haiku-5-5'],
    ];
    for (const [args, env, model] of cases) {
      const run = await callModel(args, { ...base, ...env });
      expect(run.code).toBe(0);
      expect(run.stderr).toContain(`to send it, to ${model}; the fourth argument or MODEL picks another model`);
    }
  });

  it('says how to run it when the token is missing', async () => {
    const run = await callModel(['task-1'], { GROUNDWORK_URL: url, GROUNDWORK_TOKEN: '' });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('usage: GROUNDWORK_URL=… GROUNDWORK_TOKEN=… npm run -s call-model -- <task id> [turn] [anthropic|openai-responses|openai-chat]');
  });
});

describe('the default models of examples/call-model.ts', () => {
  /** The pinned @anthropic-ai/sdk's own table of deprecated models and their end of life (not exported: read by path). */
  const deprecated = z
    .object({ DEPRECATED_MODELS: z.record(z.string(), z.string()) })
    .parse(createRequire(import.meta.url)(join(ROOT, 'node_modules', '@anthropic-ai', 'sdk', 'internal', 'data', 'deprecated-models.js'))).DEPRECATED_MODELS;

  it('are none the pinned SDK marks deprecated (claude-sonnet-4-5 reaches end of life on 2026-11-30)', () => {
    expect(deprecated['claude-sonnet-4-5']).toBe('November 30th, 2026');
    expect(Object.keys(deprecated)).not.toContain(DEFAULT_MODELS.anthropic);
    expect(Object.values(DEFAULT_MODELS)).not.toContain('claude-sonnet-4-5');
  });

  it('go into the request the SDK sends, unless the caller names another', async () => {
    const sent: string[] = [];
    const stub: typeof fetch = async (_input, init) => {
      sent.push(String(JSON.parse(String(init?.body ?? '{}')).model));
      return new Response(JSON.stringify({ id: 'msg_1', type: 'message', role: 'assistant', model: 'm', content: [], stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } }), { headers: { 'content-type': 'application/json' } });
    };
    const request: FormattedRequest = { format: 'anthropic', body: { system: [{ type: 'text', text: 'You are a coding agent.' }], messages: [{ role: 'user', content: [{ type: 'text', text: 'Add a square root.' }] }], tools: [] } };
    await sendRequest(request, { apiKey: 'k', model: chooseModel('anthropic', undefined, {}), fetch: stub });
    await sendRequest(request, { apiKey: 'k', model: chooseModel('anthropic', undefined, { MODEL: 'claude-opus-5-5' }), fetch: stub });
    await sendRequest(request, { apiKey: 'k', model: chooseModel('anthropic', 'claude-haiku-5-5', { MODEL: 'claude-opus-5-5' }), fetch: stub });
    expect(sent).toEqual([DEFAULT_MODELS.anthropic, 'claude-opus-5-5', 'claude-haiku-5-5']);
    expect(chooseModel('openai-responses', undefined, {})).toBe(DEFAULT_MODELS.openai);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendRequest } from '../../examples/call-model.ts';
import { FORMATS, formatRequest, type Format, type FormattedRequest } from '../../src/context/formats/format.ts';
import { createGitRepo, type GitFixture } from '../support/git-fixtures.ts';
import { prompt } from '../support/prompt.ts';
import { runCli } from './cli-support.ts';

interface Captured {
  url: string;
  method: string;
  headers: Headers;
  body: unknown;
}

/** What each endpoint answers: just enough for the SDK to return a result. */
const REPLIES: Record<Format, unknown> = {
  anthropic: {
    id: 'msg_1',
    type: 'message',
    role: 'assistant',
    model: 'test-model',
    content: [{ type: 'text', text: 'ok', citations: null }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: 1, output_tokens: 1 },
  },
  'openai-responses': {
    id: 'resp_1',
    object: 'response',
    status: 'completed',
    model: 'test-model',
    output: [{ type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'ok', annotations: [] }] }],
  },
  'openai-chat': {
    id: 'chatcmpl_1',
    object: 'chat.completion',
    created: 0,
    model: 'test-model',
    choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
  },
};

const ENDPOINTS: Record<Format, string> = {
  anthropic: 'https://api.anthropic.com/v1/messages',
  'openai-responses': 'https://api.openai.com/v1/responses',
  'openai-chat': 'https://api.openai.com/v1/chat/completions',
};

const LIMITS: Record<Format, Record<string, number>> = {
  anthropic: { max_tokens: 4096 },
  'openai-responses': { max_output_tokens: 4096 },
  'openai-chat': { max_completion_tokens: 4096 },
};

/** Sends `request` through the vendor's real SDK client, capturing what it would put on the wire. */
async function sendCaptured(request: FormattedRequest): Promise<{ sent: Captured; answer: unknown }> {
  const sent: Captured[] = [];
  const stub: typeof fetch = async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    sent.push({ url, method: init?.method ?? 'GET', headers: new Headers(init?.headers), body: JSON.parse(String(init?.body)) });
    return new Response(JSON.stringify(REPLIES[request.format]), { status: 200, headers: { 'content-type': 'application/json' } });
  };
  const answer = await sendRequest(request, { apiKey: 'test-key', model: 'test-model', fetch: stub });
  expect(sent).toHaveLength(1);
  return { sent: sent[0] as Captured, answer };
}

describe('request bodies through the vendor SDKs (no network)', () => {
  let repo: GitFixture;
  beforeAll(() => {
    repo = createGitRepo();
    repo.write('AGENTS.md', '# Rules\nRun the tests.\n');
    repo.write('.agents/skills/tdd/SKILL.md', '---\nname: tdd\ndescription: Write the failing test first.\n---\nRed, green, refactor.\n');
    repo.commitAll('rules and a skill');
  });
  afterAll(() => repo.remove());

  for (const format of FORMATS) {
    it(`sends the CLI's --format ${format} body unchanged, with only the model and limit added`, async () => {
      const run = await runCli(['--repo', repo.dir, '--task', 'Fix the login test. Use $tdd.', '--format', format]);
      expect(run.code).toBe(0);
      const body: unknown = JSON.parse(run.stdout);
      const request = { format, body } as FormattedRequest;
      const { sent, answer } = await sendCaptured(request);
      expect(sent.url).toBe(ENDPOINTS[format]);
      expect(sent.method).toBe('POST');
      expect(sent.body).toEqual({ model: 'test-model', ...LIMITS[format], ...(body as object) });
      expect(answer).toMatchObject({ format, answer: { id: expect.any(String) } });
      expect(JSON.stringify(sent.body)).toContain('Red, green, refactor.');
    });

    it(`sends a transcript with tool calls and results in ${format} as the vendor expects`, async () => {
      const request = formatRequest(format, prompt());
      const { sent } = await sendCaptured(request);
      expect(sent.body).toEqual({ model: 'test-model', ...LIMITS[format], ...request.body });
      expect(sent.headers.get('authorization')).toBe('Bearer test-key');
      if (format === 'anthropic') expect(sent.headers.get('anthropic-version')).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    });
  }

  it('refuses an unknown --format and --format with --json, naming the option', async () => {
    const unknown = await runCli(['--repo', repo.dir, '--format', 'gemini']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('groundwork: --format: must be one of anthropic, openai-responses, openai-chat');
    const both = await runCli(['--repo', repo.dir, '--format', 'anthropic', '--json']);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--format: cannot be combined with --json');
  });
});

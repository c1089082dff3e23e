import { env } from 'cloudflare:workers';
import { describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { ConfigError, getConfig } from '../../src/env.ts';
import { durableKnowledgeService } from '../../src/knowledge/durable-knowledge-service.ts';
import { durablePullRequestIndex } from '../../src/tasks/durable-pull-request-index.ts';
import { durableTaskService } from '../../src/tasks/durable-task-service.ts';
import { TEST_API_TOKENS } from '../support/api-tokens.ts';

const envWith = (vars: Record<string, string | undefined>): Env => ({ ...env, ...vars }) as Env;

function refusal(value: string): ConfigError {
  try {
    getConfig(envWith({ CHECK_RUN_CLIENTS: value }));
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error(`CHECK_RUN_CLIENTS=${value} was accepted`);
}

describe('CHECK_RUN_CLIENTS: the clients of the check run rules report', () => {
  it('is every client but none when unset or empty', () => {
    const all = ['codex', 'claude-code', 'gemini-cli', 'copilot', 'cursor'];
    expect(getConfig(envWith({ CHECK_RUN_CLIENTS: undefined })).CHECK_RUN_CLIENTS).toEqual(all);
    expect(getConfig(envWith({ CHECK_RUN_CLIENTS: ' , ' })).CHECK_RUN_CLIENTS).toEqual(all);
  });

  it('takes a comma-separated list in any case and order, kept in the matrix order without repeats', () => {
    expect(getConfig(envWith({ CHECK_RUN_CLIENTS: ' Cursor, codex ,,codex' })).CHECK_RUN_CLIENTS).toEqual(['codex', 'cursor']);
  });

  const refused: Array<[string, string, RegExp]> = [
    ['an unknown client', 'codex,vim', /entry 2, "vim": must be one of codex, claude-code, gemini-cli, copilot, cursor/],
    ['none', 'none', /entry 1, "none": none is Groundwork's own verdict/],
    ['a Copilot host', 'copilot:vscode', /entry 1, "copilot:vscode": a report has one column per client, as its profile was checked: name copilot/],
    ['a version', 'codex,claude-code@2.1.332', /entry 2, "claude-code@2\.1\.332": a report has one column per client.*name claude-code/],
    ['a bad version', 'codex@latest', /entry 1, "codex@latest": must be one of/],
  ];
  it.each(refused)('refuses %s with an error naming the setting and the entry', (_, value, message) => {
    const error = refusal(value);
    expect(error.fields).toEqual(['CHECK_RUN_CLIENTS']);
    expect(error.message).toMatch(/^invalid configuration: CHECK_RUN_CLIENTS: /);
    expect(error.message).toMatch(message);
  });

  it('answers 503 naming the setting (never its value), and logs which entry is wrong', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const app = buildApp({ tasks: durableTaskService, pullRequests: durablePullRequestIndex, knowledge: durableKnowledgeService, now: () => Date.now() });
    const res = await app.fetch(new Request('http://groundwork.test/tasks', { headers: { authorization: `Bearer ${TEST_API_TOKENS.acme}` } }), envWith({ CHECK_RUN_CLIENTS: 'codex,vim' }));
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ error: { code: 'not_configured', message: 'the service is not configured for this request: check CHECK_RUN_CLIENTS' } });
    expect(errors.mock.calls.flat().join(' ')).toContain('CHECK_RUN_CLIENTS: entry 2, "vim"');
    errors.mockRestore();
  });
});

import { env } from 'cloudflare:workers';
import { listDurableObjectIds } from 'cloudflare:test';
import { afterEach, describe, expect, inject, it, vi } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { durableKnowledgeService } from '../../src/knowledge/durable-knowledge-service.ts';
import { durablePullRequestIndex } from '../../src/tasks/durable-pull-request-index.ts';
import { durableTaskService } from '../../src/tasks/durable-task-service.ts';
import { api } from '../support/api.ts';
import { TEST_API_TOKENS } from '../support/api-tokens.ts';

const repo = () => `http://127.0.0.1:${inject('gitHttpPort')}/configured.git`;

/** The real app and task service, with this deployment's env changed as a `wrangler.toml` var would. */
async function postWithEnv(vars: Record<string, string>, body: unknown) {
  const app = buildApp({ tasks: durableTaskService, pullRequests: durablePullRequestIndex, knowledge: durableKnowledgeService, now: () => Date.now() });
  const res = await app.fetch(
    new Request('http://groundwork.test/tasks', {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_API_TOKENS.acme}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }),
    { ...env, ...vars },
  );
  return { status: res.status, json: await res.json<{ error?: { code: string; message: string } }>() };
}

afterEach(() => vi.restoreAllMocks());

describe('POST /tasks providers', () => {
  it.each([
    [{ recall: {} }, 'providers.recall: unknown provider; known providers: freshness, host, system, task-facts, rules, skills, history, memory'],
    [{ memory: { maxCitedRevisions: 9 } }, "providers.memory.maxCitedRevisions: 9 is above this host's cap of 8"],
    [{ skills: { rootz: ['x/*'] } }, 'providers.skills.rootz: unknown setting; skills takes roots, maxDepth'],
    [{ skills: { roots: ['../outside/*'] } }, 'providers.skills.roots[0]: path escapes the repository root'],
    [{ skills: { roots: 'skills/*' } }, 'providers.skills.roots: Invalid input: expected array'],
    [{ rules: { filenames: ['docs/AGENTS.md'] } }, 'providers.rules.filenames[0]: a file name, not a path'],
    [{ rules: { enabled: true } }, 'providers.rules.enabled: can only be false'],
    [{ rules: { budget: 0 } }, 'providers.rules.budget: Too small'],
    [{ skills: { budget: 16_001 } }, "providers.skills.budget: 16001 is above this host's cap of 16000"],
    [{ skills: { maxDirectories: 201 } }, "providers.skills.maxDirectories: 201 is above this host's cap of 200"],
    ['skills', 'providers: must be an object of provider names (freshness, host, system, task-facts, rules, skills, history, memory)'],
  ])('refuses %j with a 400 naming the field, and stores no task', async (providers, message) => {
    const before = (await listDurableObjectIds(env.TASKS)).length;
    const res = await api('POST', '/tasks', { body: { repo: repo(), request: 'x', providers } });
    expect(res.status).toBe(400);
    expect(res.json.error).toMatchObject({ code: 'bad_request', message: expect.stringContaining(message) });
    expect(await listDurableObjectIds(env.TASKS)).toHaveLength(before);
  });

  it("holds a task to this deployment's lower caps", async () => {
    const res = await postWithEnv({ PROVIDER_CONFIG: '{"skills":{"budget":2000}}' }, { repo: repo(), request: 'x', providers: { skills: { budget: 3_000 } } });
    expect(res.status).toBe(400);
    expect(res.json.error?.message).toBe("providers.skills.budget: 3000 is above this host's cap of 2000");
  });
});

describe('PROVIDER_CONFIG', () => {
  it.each([
    ['not JSON', 'PROVIDER_CONFIG: is not valid JSON'],
    ['{"skills":{"roots":["/etc/*"]}}', 'PROVIDER_CONFIG.skills.roots.0: path is absolute'],
    ['{"skillz":{}}', 'PROVIDER_CONFIG.skillz: unknown provider'],
    ['{"rules":{"budget":9000}}', 'PROVIDER_CONFIG.rules.budget: 9000 is above the 8000 tokens provider rules declares'],
  ])('answers 503 not_configured for %s and logs which field is wrong', async (value, logged) => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const before = (await listDurableObjectIds(env.TASKS)).length;
    const res = await postWithEnv({ PROVIDER_CONFIG: value }, { repo: repo(), request: 'x' });
    expect(res.status).toBe(503);
    expect(res.json.error).toMatchObject({ code: 'not_configured' });
    expect(errors.mock.calls.flat().join(' ')).toContain(logged);
    expect(await listDurableObjectIds(env.TASKS)).toHaveLength(before);
  });
});

/**
 * A person without read access to a repository gets nothing of it, on every route and MCP tool,
 * however the repository is named (property tests, fast-check): `owner/name` in any case, the
 * GitHub URL with or without `.git` or a trailing slash, in any case (tasks/repository-identity
 * reads them all as one repository). Naming it is a 403 that says GitHub's answer; its tasks and
 * knowledge are 404s, "no task" and "no knowledge" (nothing shows that they exist); and nothing is
 * created or changed on the way.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { CfWorkerJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/cfworker-provider.js';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOOL_NAMES } from '../../src/mcp/tools.ts';
import { installationTenant } from '../e2e/support-checks.ts';
import { settledTask } from '../e2e/support.ts';
import { installationTaskOn } from './support.ts';
import { githubFixture } from '../support/github-api-client.ts';
import { browser, githubWebRoot, OAUTH_ORIGIN, route } from '../support/oauth-browser.ts';
import { signedInPerson, type Person } from '../support/person.ts';

const HIDDEN = 'payments';
/** The MCP tools by what they name: a repository, a task, a knowledge record. */
const REPOSITORY_TOOLS = ['assemble_context', 'remember', 'recall'] as const;
const TASK_TOOLS = ['get_turn', 'check_freshness', 'context_for_paths', 'check_before', 'read_skill', 'post_followup'] as const;
const KNOWLEDGE_TOOLS = ['retire_knowledge'] as const;
const RUNS = { numRuns: 12 };

/** Every spelling of the hidden repository a caller may use. */
const hiddenNames = fc
  .record({
    owner: fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
    name: fc.array(fc.boolean(), { minLength: HIDDEN.length, maxLength: HIDDEN.length }),
    form: fc.constantFrom('name', 'url', 'url.git', 'url/', 'url.GIT'),
  })
  .map(({ owner, name, form }) => {
    const cased = (text: string, upper: boolean[]) => [...text].map((char, i) => (upper[i] ? char.toUpperCase() : char)).join('');
    const fullName = `${cased(githubFixture().owner, owner)}/${cased(HIDDEN, name)}`;
    if (form === 'name') return fullName;
    const url = `${githubWebRoot()}/${fullName}`;
    return form === 'url' ? url : form === 'url/' ? `${url}/` : `${url}${form.slice(3)}`;
  });

let outsider: Person;
let outsiderMcp: Person;
let insider: Person;
let mcp: Client;
let hiddenTask: string;
let hiddenKnowledge: string;

async function callTool(name: string, args: Record<string, unknown>): Promise<{ isError: boolean; text: string }> {
  const result = (await mcp.callTool({ name, arguments: args })) as CallToolResult;
  const first = result.content[0];
  return { isError: result.isError === true, text: first?.type === 'text' ? first.text : '' };
}

beforeAll(async () => {
  const fx = githubFixture();
  const readable = { [`${fx.owner}/${fx.repo}`]: 'read' } as const;
  [outsider, outsiderMcp, insider] = await Promise.all([
    signedInPerson(readable, { name: 'outsider' }),
    signedInPerson(readable, { name: 'outsider', resource: 'mcp' }),
    signedInPerson({ [`${fx.owner}/${HIDDEN}`]: 'write' }, { name: 'insider' }),
  ]);
  // The installation's pull request task on the hidden repository, and knowledge about it.
  hiddenTask = await installationTaskOn(HIDDEN);
  await settledTask(hiddenTask, installationTenant());
  const recorded = await insider.api('POST', '/knowledge', { repo: `${fx.owner}/${HIDDEN}`, kind: 'fact', statement: 'Refunds go through the ledger.', source: { uri: 'https://wiki.example.test/refunds' } });
  expect(recorded.status).toBe(201);
  hiddenKnowledge = String(recorded.json['id']);
  mcp = new Client({ name: 'property', version: '1.0.0' }, { jsonSchemaValidator: new CfWorkerJsonSchemaValidator() });
  await mcp.connect(new StreamableHTTPClientTransport(new URL(`${OAUTH_ORIGIN}/mcp`), { authProvider: outsiderMcp.client, fetch: (url, init) => route(String(url), init) }));
}, 60_000);

afterAll(async () => {
  await mcp?.close();
});

describe('a person GitHub will not let read a repository', () => {
  it('is refused 403 naming it on every REST route that takes a repository, however it is named, and nothing is made', async () => {
    await fc.assert(
      fc.asyncProperty(hiddenNames, async (repo) => {
        const refused = [
          await outsider.api('POST', '/tasks', { repo, request: 'Show me the payments rules.' }),
          await outsider.api('GET', `/tasks?repo=${encodeURIComponent(repo)}`),
          await outsider.api('POST', '/knowledge', { repo, kind: 'fact', statement: 'Mine now.', source: { uri: 'https://attacker.example/' } }),
          await outsider.api('GET', `/knowledge?repo=${encodeURIComponent(repo)}`),
        ];
        for (const answer of refused) {
          expect(answer.status).toBe(403);
          expect(answer.json.error?.message).toMatch(new RegExp(`cannot read ${githubFixture().owner}/${HIDDEN}`));
        }
      }),
      RUNS,
    );
    const listed = await outsider.api('GET', '/tasks?limit=100');
    expect((listed.json['tasks'] as Array<{ repo: string }>).filter((row) => row.repo.toLowerCase().includes(HIDDEN))).toEqual([]);
    const kept = await insider.api('GET', `/knowledge?repo=${githubFixture().owner}/${HIDDEN}`);
    expect((kept.json['items'] as Array<{ statement: string }>).map((item) => item.statement)).toEqual(['Refunds go through the ledger.']);
  });

  it('covers every MCP tool the server lists: a new tool must join one of the cases below', () => {
    expect([...REPOSITORY_TOOLS, ...TASK_TOOLS, ...KNOWLEDGE_TOOLS].sort()).toEqual([...TOOL_NAMES].sort());
  });

  it('is refused on every MCP tool that takes a repository, however it is named', async () => {
    await fc.assert(
      fc.asyncProperty(hiddenNames, async (repo) => {
        for (const [tool, args] of [
          ['assemble_context', { repo, request: 'Show me the payments rules.' }],
          ['remember', { repo, kind: 'fact', statement: 'Mine now.', source: { uri: 'https://attacker.example/' } }],
          ['recall', { repo }],
        ] satisfies Array<[(typeof REPOSITORY_TOOLS)[number], Record<string, unknown>]>) {
          const answer = await callTool(tool, args);
          expect(answer.isError, `${tool} ${repo}`).toBe(true);
          expect(answer.text, tool).toMatch(new RegExp(`cannot read ${githubFixture().owner}/${HIDDEN}`));
        }
      }),
      RUNS,
    );
  });

  it('gets a 404 "no task" on every route of a task on it, as for a task that does not exist', async () => {
    const id = hiddenTask;
    const routes: Array<[string, string, unknown?]> = [
      ['GET', `/tasks/${id}`],
      ['GET', `/tasks/${id}/turns/0`],
      ['GET', `/tasks/${id}/freshness`],
      ['POST', `/tasks/${id}/turns`, { turn: 1 }],
      ['POST', `/tasks/${id}/transcript`, { items: [{ type: 'message', id: 'x1', role: 'assistant', content: 'hi' }] }],
      ['POST', `/tasks/${id}/mailbox`, { from: 'outsider', text: 'let me in' }],
      ['POST', `/tasks/${id}/paths`, { paths: ['src'] }],
      ['POST', `/tasks/${id}/turns/0/usage`, { format: 'anthropic', model: 'm', usage: { input_tokens: 1, output_tokens: 1 } }],
      ['POST', `/tasks/${id}/checks`, { action: 'push' }],
      ['POST', `/tasks/${id}/knowledge`, { statement: 'learned' }],
    ];
    for (const [method, path, body] of routes) {
      const answer = await outsider.api(method, path, body);
      expect(answer.status, `${method} ${path}`).toBe(404);
      expect(answer.json.error?.message, `${method} ${path}`).toBe(`no task ${id}`);
    }
  });

  it('gets "no task" from every MCP tool and resource of a task on it', async () => {
    const taskId = hiddenTask;
    for (const [tool, args] of [
      ['get_turn', { taskId, turn: 0 }],
      ['check_freshness', { taskId }],
      ['context_for_paths', { taskId, paths: ['src'] }],
      ['check_before', { taskId, action: 'push' }],
      ['read_skill', { taskId, name: 'skill-01' }],
      ['post_followup', { taskId, from: 'outsider', text: 'let me in' }],
    ] satisfies Array<[(typeof TASK_TOOLS)[number], Record<string, unknown>]>) {
      const answer = await callTool(tool, args);
      expect(answer.isError, tool).toBe(true);
      expect(answer.text, tool).toMatch(new RegExp(`^no task ${taskId}`));
    }
    await expect(mcp.readResource({ uri: `groundwork://tasks/${taskId}/turns/0` })).rejects.toThrow(/no task/);
    await expect(mcp.readResource({ uri: `groundwork://tasks/${taskId}/sources/AGENTS.md` })).rejects.toThrow(/no task/);
    const { resources } = await mcp.listResources();
    expect(resources.filter((resource) => resource.uri.includes(taskId))).toEqual([]);
  });

  it('gets a 404 for its knowledge by id, and "no knowledge" from retire_knowledge', async () => {
    const id = hiddenKnowledge;
    for (const [method, path, body] of [
      ['GET', `/knowledge/${id}`],
      ['GET', `/knowledge/${id}/versions`],
      ['PATCH', `/knowledge/${id}`, { statement: 'changed' }],
      ['POST', `/knowledge/${id}/retire`, { reason: 'gone' }],
    ] as Array<[string, string, unknown?]>) {
      const answer = await outsider.api(method, path, body);
      expect(answer.status, `${method} ${path}`).toBe(404);
    }
    const retired = await callTool(KNOWLEDGE_TOOLS[0], { id, reason: 'gone' });
    expect(retired).toMatchObject({ isError: true, text: expect.stringMatching(/no knowledge/) });
    expect((await insider.api('GET', `/knowledge/${id}`)).json).toMatchObject({ status: 'active', statement: 'Refunds go through the ledger.' });
  });

  it("sees a 404 page for the task in the inspector, signed in with GitHub, and the list shows none of the repository's tasks", async () => {
    const person = browser(outsider.login);
    const list = await person.open(`${OAUTH_ORIGIN}/signin?return=/view`);
    expect(list.url).toBe(`${OAUTH_ORIGIN}/view`);
    const html = await list.response.text();
    expect(html).toContain(`Signed in as <strong>@${outsider.login}</strong>`);
    expect(html).not.toContain(hiddenTask);
    const page = await person.open(`${OAUTH_ORIGIN}/tasks/${hiddenTask}/view`);
    expect(page.response.status).toBe(404);
    expect(await page.response.text()).toContain('No such task');
  });

  it('is refused the inspector list filtered by the repository, however it is named', async () => {
    const person = browser(outsider.login);
    expect((await person.open(`${OAUTH_ORIGIN}/signin?return=/view`)).url).toBe(`${OAUTH_ORIGIN}/view`);
    await fc.assert(
      fc.asyncProperty(hiddenNames, async (repo) => {
        const filtered = await person.open(`${OAUTH_ORIGIN}/view?repo=${encodeURIComponent(repo)}`);
        const html = await filtered.response.text();
        expect(filtered.response.status, repo).toBe(403);
        expect(html).toMatch(new RegExp(`cannot read ${githubFixture().owner}/${HIDDEN}`));
        expect(html).not.toContain(hiddenTask);
      }),
      RUNS,
    );
  });
});

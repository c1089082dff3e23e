/**
 * `assemble_context` over `groundwork mcp` (the built CLI, the official SDK client over stdio)
 * takes its client from the MCP `initialize` clientInfo when the call names none (issue 50): a
 * host that says it is Claude Code gets no second copy of the AGENTS.md Claude Code loads itself.
 */
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitRepo, type GitFixture } from '../support/git-fixtures.ts';
import { BUILT_CLI } from './cli-support.ts';

const RULE = 'Run `npm test` before committing.';
let repo: GitFixture;
const open: Client[] = [];

async function connectAs(name: string, version: string): Promise<Client> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [BUILT_CLI, 'mcp'], env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '' }, stderr: 'pipe' });
  const client = new Client({ name, version });
  await client.connect(transport);
  open.push(client);
  return client;
}

async function assemble(client: Client, extra: Record<string, unknown> = {}): Promise<{ isError: boolean; text: string }> {
  const result = (await client.callTool({ name: 'assemble_context', arguments: { repo: pathToFileURL(repo.dir).href, request: 'Tidy the parser.', ...extra } })) as CallToolResult;
  const [first] = result.content;
  return { isError: result.isError === true, text: first?.type === 'text' ? first.text : '' };
}

beforeAll(() => {
  repo = createGitRepo();
  repo.write('AGENTS.md', `# Rules\n\n${RULE}\n`);
  repo.commitAll('rules');
});
afterAll(async () => {
  for (const client of open) await client.close();
  repo?.remove();
});

describe('assemble_context and the MCP client', () => {
  it('takes the client from clientInfo: Claude Code gets a line naming AGENTS.md, not a second copy', async () => {
    const claude = await connectAs('claude-code', '2.1.332');
    const answer = await assemble(claude);
    expect(answer.isError, answer.text).toBe(false);
    expect(answer.text).not.toContain(RULE);
    expect(answer.text).toContain('Claude Code loads these rule files itself at start, so they are not repeated here: AGENTS.md (blob');
  });

  it('lets the call name its client over clientInfo, and refuses an unknown one naming the argument', async () => {
    const claude = await connectAs('claude-code', '2.1.332');
    expect((await assemble(claude, { client: 'none' })).text).toContain(RULE);
    const refused = await assemble(claude, { client: 'vim' });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain('client: unknown client "vim": must be one of none, codex, claude-code, gemini-cli, copilot, cursor');
  });

  it('gives everything to a host whose clientInfo names no known client', async () => {
    const other = await connectAs('some-editor', '3.0.0');
    expect((await assemble(other)).text).toContain(RULE);
  });
});

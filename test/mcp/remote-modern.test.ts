/**
 * The remote MCP server as the official SDK's 2.x client sees it at 2026-07-28 (pinned: no
 * initialize; each request's `_meta` and headers): the same tools with output schemas the client
 * validates every answer against, the skills extension read and verified by the SDK's own
 * `SkillsClient` (sizes, SHA-256 digests, frontmatter), ranked for the task, with the index's
 * warnings, and completions of the resource templates' arguments from the caller's tasks.
 */
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestRemote, type TestRemote } from '../support/git-remote.ts';
import { postMcp } from '../support/mcp-client.ts';
import { connectModern, type ModernConnection } from '../support/mcp-modern-client.ts';

const RELEASE = '---\nname: release\ndescription: Cut a release of the package.\nlicense: MIT\nmetadata:\n  version: "1.0"\n---\nRun the release, then read references/GUIDE.md.\n';
const TRIAGE = '---\nname: triage\ndescription: Triage a bug report into a reproducible issue.\n---\nReproduce the bug first.\n';
const GUIDE = '# Release guide\n\nTag after the changelog.\n';

let acme: ModernConnection;
let globex: ModernConnection;
let remote: TestRemote;
let taskId: string;

const text = (result: { content: Array<{ type: string; text?: string }> }) => result.content.map((block) => block.text ?? '').join('');

beforeAll(async () => {
  remote = await createTestRemote({
    'AGENTS.md': '# Rules\n\nRun the tests first.\n',
    '.agents/skills/release/SKILL.md': RELEASE,
    '.agents/skills/release/references/GUIDE.md': GUIDE,
    '.agents/skills/triage/SKILL.md': TRIAGE,
    '.agents/skills/misnamed/SKILL.md': '---\nname: other-name\ndescription: Its name is not its directory.\n---\nBody.\n',
    '.agents/skills/numbered/SKILL.md': '---\nname: numbered\ndescription: Its metadata is a number, not text.\nmetadata:\n  version: 2\n---\nBody.\n',
  });
  acme = await connectModern({ tenant: 'acme' });
  globex = await connectModern({ tenant: 'globex' });
  const assembled = await acme.client.callTool({ name: 'assemble_context', arguments: { repo: remote.url, request: 'Triage the bug report about the crash.' } });
  taskId = String((assembled.structuredContent as { taskId: string }).taskId);
}, 60_000);

afterAll(async () => {
  await acme?.close();
  await globex?.close();
});

describe('the 2026-07-28 era through the SDK 2.x client', () => {
  it('connects without initialize and sends every request with its version, method and name headers', async () => {
    expect(acme.client.getServerCapabilities()).toMatchObject({ tools: {}, resources: {}, extensions: { 'io.modelcontextprotocol/skills': {} } });
    await acme.client.listTools();
    expect(acme.seen.some((request) => request.method === 'initialize')).toBe(false);
    expect(acme.seen.filter((request) => request.method !== null).every((request) => request.version === '2026-07-28' && request.status === 200)).toBe(true);
    expect(acme.seen).toContainEqual(expect.objectContaining({ method: 'tools/call', name: 'assemble_context' }));
  });

  it('answers every tool with structured content its output schema holds (the client checks), refusals included', async () => {
    const { tools } = await acme.client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('context_for_paths');
    for (const tool of tools) expect(tool.outputSchema, tool.name).toMatchObject({ type: 'object' });
    const turn = await acme.client.callTool({ name: 'get_turn', arguments: { taskId } });
    expect(turn.structuredContent).toMatchObject({ taskId, status: 'ready', turn: 0, digest: expect.stringMatching(/^sha256:/) });
    const fresh = await acme.client.callTool({ name: 'check_freshness', arguments: { taskId } });
    expect(fresh.structuredContent).toMatchObject({ taskId, moved: false });
    const refused = await acme.client.callTool({ name: 'get_turn', arguments: { taskId: 'f'.repeat(64) } });
    expect(refused).toMatchObject({ isError: true, structuredContent: { status: 'not-found' } });
    expect(text(refused)).toContain('no task');
  });
});

describe('the skills extension', () => {
  it('lists the task\u2019s skills ranked for its request, each file with its SHA-256 and size, and says why one is not served', async () => {
    const skills = new SkillsClient(acme.client);
    expect(skills.supported).toBe(true);
    const listing = await skills.list();
    const ours = listing.skills.filter((skill) => skill.uri.startsWith(`skill://${taskId}/`));
    // Ranked like the skills index: the request is about triage.
    expect(ours.map((skill) => skill.frontmatter.name)).toEqual(['triage', 'release']);
    const release = ours[1];
    expect(release).toMatchObject({ uri: `skill://${taskId}/.agents/skills/release/SKILL.md`, frontmatter: { name: 'release', description: 'Cut a release of the package.', license: 'MIT', metadata: { version: '1.0' } } });
    const files = release?.resources === 'dynamic' ? [] : (release?.resources ?? []);
    expect(files.map((file) => file.uri)).toEqual([`skill://${taskId}/.agents/skills/release/SKILL.md`, `skill://${taskId}/.agents/skills/release/references/GUIDE.md`]);
    expect(files[1]).toMatchObject({ size: GUIDE.length, digest: `sha256:${await sha256(GUIDE)}` });
    // The raw pages carry the index's reasons in _meta, each naming its task.
    const warnings: string[] = [];
    for (let cursor: string | undefined, id = 1; id === 1 || cursor !== undefined; id++) {
      const raw = await postMcp({ jsonrpc: '2.0', id, method: 'skills/list', params: cursor === undefined ? {} : { cursor } });
      const page = (await raw.json()) as { result: { _meta?: { warnings?: string[] }; nextCursor?: string } };
      warnings.push(...(page.result._meta?.warnings ?? []));
      cursor = page.result.nextCursor;
    }
    expect(warnings).toContainEqual(expect.stringMatching(new RegExp(`^task ${taskId.slice(0, 12)}: \\.agents/skills/misnamed/SKILL\\.md: not served over MCP: its frontmatter name "other-name" is not its directory's name "misnamed"`)));
    expect(warnings).toContainEqual(expect.stringMatching(new RegExp(`^task ${taskId.slice(0, 12)}: \\.agents/skills/numbered/SKILL\\.md: not served over MCP: its frontmatter metadata must map names to text`)));
    // The index's own validation warning for the same file, as a task's context shows it.
    expect(warnings).toContainEqual(expect.stringMatching(new RegExp(`^task ${taskId.slice(0, 12)}: \\.agents/skills/misnamed/SKILL\\.md: name "other-name" does not match its directory "misnamed"`)));
  });

  it('reads a skill whole through resources/read, each file verified by the SDK against its entry, and gets it by URI', async () => {
    const skills = new SkillsClient(acme.client);
    const { skill } = await skills.get(`skill://${taskId}/.agents/skills/release/SKILL.md`);
    const main = await skills.read(skill);
    expect(main).toMatchObject({ verified: true, text: RELEASE, frontmatter: { name: 'release' } });
    const guide = await skills.read(skill, 'references/GUIDE.md');
    expect(guide).toMatchObject({ verified: true, text: GUIDE, mimeType: 'text/markdown' });
    await expect(skills.get(`skill://${taskId}/.agents/skills/misnamed/SKILL.md`)).rejects.toThrow(/No skill is served/);
    await expect(acme.client.readResource({ uri: `skill://${taskId}/AGENTS.md` })).rejects.toThrow(/not a file of a skill/);
  });

  it('serves another tenant none of it', async () => {
    await expect(new SkillsClient(globex.client).get(`skill://${taskId}/.agents/skills/release/SKILL.md`)).rejects.toThrow(/No skill is served/);
    await expect(globex.client.readResource({ uri: `skill://${taskId}/.agents/skills/release/SKILL.md` })).rejects.toThrow(/no task/);
  });
});

describe('completions of the resource templates', () => {
  it('completes a task id from the caller\u2019s tasks, and a turn and a path of that task', async () => {
    const ids = await acme.client.complete({ ref: { type: 'ref/resource', uri: 'groundwork://tasks/{taskId}/turns/{turn}' }, argument: { name: 'taskId', value: taskId.slice(0, 10) } });
    expect(ids.completion.values).toContain(taskId);
    const turns = await acme.client.complete({ ref: { type: 'ref/resource', uri: 'groundwork://tasks/{taskId}/turns/{turn}' }, argument: { name: 'turn', value: '' }, context: { arguments: { taskId } } });
    expect(turns.completion.values).toEqual(['0']);
    const paths = await acme.client.complete({ ref: { type: 'ref/resource', uri: 'groundwork://tasks/{taskId}/sources/{+path}' }, argument: { name: 'path', value: 'AG' }, context: { arguments: { taskId } } });
    expect(paths.completion.values).toEqual(['AGENTS.md']);
    const theirs = await globex.client.complete({ ref: { type: 'ref/resource', uri: 'groundwork://tasks/{taskId}/turns/{turn}' }, argument: { name: 'taskId', value: taskId.slice(0, 10) } });
    expect(theirs.completion.values).not.toContain(taskId);
  });
});

async function sha256(text: string): Promise<string> {
  return [...new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)))].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * `groundwork mcp` (the built CLI, over stdio) at 2026-07-28, as the official SDK's 2.x client
 * speaks it: first in `auto` mode, which probes with `server/discover` and stays modern, then
 * pinned. The skills extension serves the working repository the process runs in, read and
 * verified by the SDK's own `SkillsClient` (sizes, SHA-256 digests of the raw bytes, a binary
 * asset included, frontmatter); tools answer with structured content their output schema holds;
 * and a legacy client (the 1.x SDK, initialize) is served by the same process unchanged.
 */
import { createHash } from 'node:crypto';
import { Client } from '@modelcontextprotocol/client';
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as LegacyStdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { createGitRepo, type GitFixture } from '../support/git-fixtures.ts';
import { BUILT_CLI } from './cli-support.ts';

const SKILL = '---\nname: release\ndescription: Cut a release.\nmetadata:\n  owner: "platform"\n---\nRun scripts/release.sh, then tag.\n';
const SCRIPT = '#!/bin/sh\necho release\n';
const LOGO = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff, 0xfe, 0x00, 0x01]);

let repo: GitFixture;
let client: Client;
let stderr = '';

const env = () => ({ PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '' });
const sha256 = (bytes: Uint8Array | string) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

beforeAll(async () => {
  repo = createGitRepo();
  repo.write('AGENTS.md', '# Rules\n\nRun `npm test` before committing.\n');
  repo.write('.agents/skills/release/SKILL.md', SKILL);
  repo.write('.agents/skills/release/scripts/release.sh', SCRIPT);
  repo.write('.agents/skills/release/assets/logo.png', LOGO);
  repo.write('.agents/skills/broken/SKILL.md', '---\nname: broken\n---\nNo description.\n');
  repo.commitAll('rules and skills');
  const transport = new StdioClientTransport({ command: process.execPath, args: [BUILT_CLI, 'mcp'], cwd: repo.dir, env: env(), stderr: 'pipe' });
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  client = new Client({ name: 'groundwork-modern-stdio-test', version: '2.0.0' }, { versionNegotiation: { mode: 'auto' } });
  await client.connect(transport);
}, 60_000);

afterAll(async () => {
  await client?.close();
  repo?.remove();
});

describe('groundwork mcp at 2026-07-28', () => {
  it('is found modern by the SDK\u2019s probe (server/discover), and declares tools, resources, completions and the skills extension', () => {
    expect(client.getServerCapabilities()).toMatchObject({ tools: {}, resources: {}, completions: {}, extensions: { 'io.modelcontextprotocol/skills': {} } });
    expect(client.getServerVersion()).toMatchObject({ name: 'groundwork' });
  });

  it('lists the local tool set and answers each tool with structured content the client validates against its output schema', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['assemble_context', 'get_turn', 'check_freshness', 'check_before', 'read_skill']);
    for (const tool of tools) expect(tool.outputSchema, tool.name).toMatchObject({ type: 'object' });
    // repo omitted: the repository the server runs in.
    const assembled = await client.callTool({ name: 'assemble_context', arguments: { request: 'Cut a release.' } });
    expect(assembled.structuredContent).toMatchObject({ status: 'ready', turn: 0, commit: expect.stringMatching(/^[0-9a-f]{40}$/) });
    const { taskId } = z.object({ taskId: z.string() }).parse(assembled.structuredContent);
    expect(await client.callTool({ name: 'get_turn', arguments: { taskId } })).toMatchObject({ structuredContent: { taskId, turn: 0 } });
    expect(await client.callTool({ name: 'check_freshness', arguments: { taskId } })).toMatchObject({ structuredContent: { taskId } });
    // A local check is not recorded: no record id, the verdict and its reasons.
    const checked = await client.callTool({ name: 'check_before', arguments: { taskId, action: 'push' } });
    expect(checked.structuredContent).toMatchObject({ taskId, action: 'push', verdict: expect.any(String) });
    expect(checked.structuredContent).not.toHaveProperty('id');
    expect(await client.callTool({ name: 'read_skill', arguments: { taskId, name: 'release' } })).toMatchObject({ structuredContent: { taskId, name: 'release' } });
    // The local layer's own refusal is a 2026-07-28 result too: the client takes it as the tool's answer.
    const elsewhere = await client.callTool({ name: 'assemble_context', arguments: { repo: 'owner/name', request: 'x' } });
    expect(elsewhere).toMatchObject({ isError: true, content: [{ type: 'text', text: expect.stringContaining('repo: there is no') }] });
    for (const name of ['no_such_tool', 'context_for_paths', 'post_followup', 'remember']) await expect(client.callTool({ name, arguments: {} }), name).rejects.toMatchObject({ code: -32602 });
  });

  it('serves the working repository\u2019s skills, every file verified by the SDK against its SHA-256 and size, bytes included', async () => {
    const skills = new SkillsClient(client);
    expect(skills.supported).toBe(true);
    const { skills: entries } = await skills.list();
    expect(entries.map((entry) => entry.uri)).toEqual(['skill://.agents/skills/release/SKILL.md']);
    const [release] = entries;
    if (!release) throw new Error('no release skill listed');
    expect(release).toEqual({
      uri: 'skill://.agents/skills/release/SKILL.md',
      frontmatter: { name: 'release', description: 'Cut a release.', metadata: { owner: 'platform' } },
      resources: [
        { uri: 'skill://.agents/skills/release/SKILL.md', digest: sha256(SKILL), size: SKILL.length },
        { uri: 'skill://.agents/skills/release/assets/logo.png', digest: sha256(LOGO), size: LOGO.length },
        { uri: 'skill://.agents/skills/release/scripts/release.sh', digest: sha256(SCRIPT), size: SCRIPT.length },
      ],
    });
    expect(await skills.read(release)).toMatchObject({ verified: true, text: SKILL, body: 'Run scripts/release.sh, then tag.\n' });
    const logo = await skills.read(release, 'assets/logo.png');
    expect(logo).toMatchObject({ verified: true, mimeType: 'image/png' });
    expect([...logo.bytes]).toEqual([...LOGO]);
    expect(await skills.read(release, 'scripts/release.sh')).toMatchObject({ verified: true, text: SCRIPT, mimeType: 'text/x-shellscript' });
    await expect(skills.get('skill://.agents/skills/broken/SKILL.md')).rejects.toThrow(/No skill is served/);
  });

  it('lists what it moves to the next commit: a skill committed after the first listing is listed on the next', async () => {
    repo.write('.agents/skills/triage/SKILL.md', '---\nname: triage\ndescription: Triage a bug.\n---\nReproduce first.\n');
    repo.commitAll('a second skill');
    const { skills: entries } = await new SkillsClient(client).list();
    expect(entries.map((entry) => entry.frontmatter.name)).toEqual(['release', 'triage']);
  });

  it('serves a legacy client in another process unchanged, with the skills extension declared there too', async () => {
    const legacy = new LegacyClient({ name: 'groundwork-legacy-stdio-test', version: '1.0.0' });
    await legacy.connect(new LegacyStdioClientTransport({ command: process.execPath, args: [BUILT_CLI, 'mcp'], cwd: repo.dir, env: env(), stderr: 'pipe' }));
    try {
      expect(legacy.getServerCapabilities()).toMatchObject({ tools: {}, extensions: { 'io.modelcontextprotocol/skills': {} } });
      const listed = await legacy.request({ method: 'skills/list', params: {} }, z.object({ skills: z.array(z.object({ uri: z.string() })) }));
      expect(listed.skills.map((skill) => skill.uri)).toContain('skill://.agents/skills/release/SKILL.md');
    } finally {
      await legacy.close();
    }
    expect(stderr).toContain(`serving ${repo.dir} over stdio`);
  });
});

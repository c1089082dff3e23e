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

  it('answers tools with structured content the client validates against each tool\u2019s output schema', async () => {
    const { tools } = await client.listTools();
    for (const tool of tools) expect(tool.outputSchema, tool.name).toMatchObject({ type: 'object' });
    const assembled = await client.callTool({ name: 'assemble_context', arguments: { repo: pathToFileURL(repo.dir).href, request: 'Cut a release.' } });
    expect(assembled.structuredContent).toMatchObject({ status: 'ready', turn: 0, commit: expect.stringMatching(/^[0-9a-f]{40}$/) });
    const unknown = client.callTool({ name: 'no_such_tool', arguments: {} });
    await expect(unknown).rejects.toMatchObject({ code: -32602 });
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
    expect(stderr).toContain('serving over stdio');
  });
});

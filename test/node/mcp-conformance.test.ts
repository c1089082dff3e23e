/**
 * The official MCP conformance suite (`@modelcontextprotocol/conformance`, the version pinned in
 * package.json) against both Groundwork servers at both protocol versions: the Worker's `/mcp`
 * under `wrangler dev` (through a proxy that adds the bearer token the suite cannot send), and
 * `groundwork mcp` (the built CLI, over stdio, through an HTTP bridge; test/support). Each run
 * must pass but for the checks its baseline lists with their reasons (test/conformance/); the
 * suite fails a run whose listed check starts passing. The skills extension's scenarios run too,
 * on a repository whose skills give them something to check, and must not pass by skipping.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { startWranglerDev, type WranglerDev } from '../../bench/wrangler-dev.ts';
import { serveRepository, type RepositoryServer } from '../../src/cli/run/repository-server.ts';
import { createGitRepo, type GitFixture } from '../support/git-fixtures.ts';
import { startAuthProxy, type AuthProxy } from '../support/mcp-auth-proxy.ts';
import { startStdioBridge, type StdioBridge } from '../support/mcp-stdio-bridge.ts';
import { BUILT_CLI } from './cli-support.ts';

const SUITE = fileURLToPath(new URL('../../node_modules/@modelcontextprotocol/conformance/dist/index.js', import.meta.url));
const BASELINES = fileURLToPath(new URL('../conformance/', import.meta.url));
const TOKEN = 'conformance-test-token-0123456789';
const VERSIONS = ['2025-11-25', '2026-07-28'] as const;
const SKILL_SCENARIOS = ['sep-2640-skills-enumeration', 'sep-2640-skills-manifest', 'sep-2640-skills-directory'] as const;

let repo: GitFixture;
let served: RepositoryServer;
let worker: WranglerDev;
let proxy: AuthProxy;
let bridge: StdioBridge;
let work: string;

/** A repository with rules and skills: one with supporting files and a binary asset, one that cannot be served (its name is not its directory's). */
function buildRepository(fixture: GitFixture): void {
  fixture.write('AGENTS.md', '# Rules\n\nRun `npm test` before committing.\n');
  fixture.write('.agents/skills/release/SKILL.md', '---\nname: release\ndescription: Cut a release of the package.\nlicense: MIT\nmetadata:\n  version: "1.0"\n---\nRun scripts/release.sh, then tag.\n');
  fixture.write('.agents/skills/release/scripts/release.sh', '#!/bin/sh\necho release\n');
  fixture.write('.agents/skills/release/assets/logo.bin', Uint8Array.from([0, 159, 146, 150, 255, 0, 1, 2]));
  fixture.write('.agents/skills/review/SKILL.md', '---\nname: review\ndescription: Review a pull request against the rules.\n---\nRead the diff, then the rules.\n');
  fixture.write('.agents/skills/misnamed/SKILL.md', '---\nname: something-else\ndescription: A skill whose name is not its directory.\n---\nBody.\n');
  fixture.commitAll('rules and skills');
}

async function readyTask(): Promise<string> {
  const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
  const created = z.object({ id: z.string() }).parse(await (await fetch(`${worker.origin}/tasks`, { method: 'POST', headers, body: JSON.stringify({ repo: served.url, request: 'Cut a release.' }) })).json());
  const deadline = Date.now() + 60_000;
  for (;;) {
    const { status, reason } = z.object({ status: z.string(), reason: z.string().nullable() }).parse(await (await fetch(`${worker.origin}/tasks/${created.id}`, { headers })).json());
    if (status === 'ready') return created.id;
    if (status === 'failed' || Date.now() > deadline) throw new Error(`task ${created.id} is ${status}: ${reason ?? ''}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The version's baseline, with the stdio server's additions when `stdio`; written where the suite reads it. */
function baseline(name: string, stdio: boolean): string {
  const lines = [name, ...(stdio ? ['stdio.yaml'] : [])].flatMap((file) => readFileSync(join(BASELINES, file), 'utf8').split('\n').filter((line) => /^\s+- /.test(line)));
  const path = join(work, `${stdio ? 'stdio' : 'remote'}-${name}`);
  writeFileSync(path, `server:\n${lines.join('\n')}\n`);
  return path;
}

interface Run {
  code: number | null;
  output: string;
  /** Every check of every scenario run, by scenario. */
  checks: Map<string, Array<{ id: string; status: string }>>;
}

const CheckSchema = z.array(z.object({ id: z.string(), status: z.string() }));

async function runSuite(url: string, args: string[]): Promise<Run> {
  const out = mkdtempSync(join(work, 'results-'));
  const child = spawn(process.execPath, [SUITE, 'server', '--url', url, '-o', out, ...args], { cwd: work, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  const checks = new Map<string, Array<{ id: string; status: string }>>();
  for (const dir of readdirSync(out)) {
    // A scenario the suite skipped wrote no checks.
    const file = join(out, dir, 'checks.json');
    if (existsSync(file)) checks.set(dir.replace(/^server-/, '').replace(/-\d{4}-\d{2}-\d{2}T.*$/, ''), CheckSchema.parse(JSON.parse(readFileSync(file, 'utf8'))));
  }
  return { code, output, checks };
}

/** The suite's own summary of what failed, for the assertion message. */
const failures = (run: Run) => run.output.slice(run.output.indexOf('=== SUMMARY ===')).slice(-6000);

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'groundwork-conformance-'));
  repo = createGitRepo();
  buildRepository(repo);
  served = await serveRepository(join(repo.dir, '.git'));
  worker = await startWranglerDev({ API_TOKENS: `conformance=${TOKEN}`, VIEW_LINK_SECRET: 'conformance-test-view-link-secret', GIT_ALLOWED_HOSTS: '127.0.0.1' });
  await readyTask();
  proxy = await startAuthProxy(worker.origin, TOKEN);
  bridge = await startStdioBridge(BUILT_CLI, repo.dir);
}, 180_000);

afterAll(async () => {
  await bridge?.close();
  await proxy?.close();
  await worker?.stop();
  await served?.close();
  repo?.remove();
  if (work) rmSync(work, { recursive: true, force: true });
});

const servers = [
  { name: 'the Worker\u2019s /mcp', stdio: false, url: () => `${proxy.origin}/mcp` },
  { name: 'groundwork mcp over stdio', stdio: true, url: () => `${bridge.origin}/mcp` },
] as const;

describe.concurrent.each(servers)('the official conformance suite against $name', ({ stdio, url }) => {
  it.each(VERSIONS)('passes at %s but for the baseline\u2019s listed checks', async (version) => {
    const run = await runSuite(url(), ['--spec-version', version, '--suite', 'all', '--expected-failures', baseline(`${version}.yaml`, stdio)]);
    expect(run.code, failures(run)).toBe(0);
    // The exit code covers every check; this says the scenarios that test what Groundwork implements did run.
    const core = version === '2026-07-28' ? ['server-stateless', 'tools-list', 'resources-list', 'caching', 'http-header-validation', 'sep-2164-resource-not-found', 'dns-rebinding-protection'] : ['server-initialize', 'ping', 'tools-list', 'resources-list', 'dns-rebinding-protection'];
    for (const scenario of core) expect(run.checks.get(scenario)?.filter((check) => check.status === 'SUCCESS').length ?? 0, scenario).toBeGreaterThan(0);
  }, 240_000);

  it('serves the skills extension as the suite checks it, with entries to check', async () => {
    // An extension's scenarios are off the versions' timeline: the suite runs them at 2026-07-28, the extension's base revision.
    const runs = await Promise.all(SKILL_SCENARIOS.map((scenario) => runSuite(url(), ['--scenario', scenario])));
    for (const run of runs) expect(run.code, failures(run)).toBe(0);
    const checks = new Map(runs.flatMap((run) => [...run.checks.values()].flat()).map((check) => [check.id, check.status]));
    // Not passed by skipping: the listing held entries, and each entry's checks ran.
    for (const id of ['sep-2640-skills-list-implemented', 'sep-2640-entry-uri-matches-frontmatter-name', 'sep-2640-resources-complete', 'sep-2640-resources-digest-format', 'sep-2640-resources-size-required', 'sep-2640-skills-list-cache-attributes', 'sep-2640-final-segment-equals-name']) {
      expect(checks.get(id), id).toBe('SUCCESS');
    }
  }, 240_000);
});

describe('the baselines', () => {
  it('fail the run when a listed check passes, so no entry outlives its reason', async () => {
    const stale = join(work, 'stale.yaml');
    writeFileSync(stale, 'server:\n  - tools-list:tools-list\n');
    const run = await runSuite(`${proxy.origin}/mcp`, ['--spec-version', '2026-07-28', '--scenario', 'tools-list', '--expected-failures', stale]);
    expect(run.checks.get('tools-list')).toContainEqual(expect.objectContaining({ id: 'tools-list', status: 'SUCCESS' }));
    expect(run.code).toBe(1);
  }, 60_000);

  it('give every entry its reason', () => {
    for (const file of readdirSync(BASELINES).filter((name) => name.endsWith('.yaml'))) {
      const lines = readFileSync(join(BASELINES, file), 'utf8').split('\n');
      lines.forEach((line, i) => {
        if (!/^\s+- /.test(line)) return;
        // The nearest line above that is not an entry is the comment saying why.
        const above = lines.slice(0, i).reverse().find((candidate) => !/^\s+- /.test(candidate));
        expect(above, `${file}:${i + 1}`).toMatch(/^\s+# \S/);
      });
    }
  });
});


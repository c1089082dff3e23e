import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runRunCommand } from '../../src/cli/run/run-command.ts';
import type { RepositoryServer } from '../../src/cli/run/repository-server.ts';
import { AssembledTurnSchema, type AssembledTurn } from '../../src/context/turn-schema.ts';
import { createGitRepo, type GitFixture } from '../support/git-fixtures.ts';
import { BUILT_CLI, runCliJson } from './cli-support.ts';

// Each run boots workerd; on a shared two-core machine that alone can take seconds.
const BOOT_TIMEOUT = 120_000;

async function runInProcess(argv: string[]): Promise<{ code: number; stdout: string; stderr: string; gitRequests: number }> {
  let stdout = '';
  let stderr = '';
  let served: RepositoryServer | undefined;
  const code = await runRunCommand(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) }, { onServed: (server) => (served = server) });
  return { code, stdout, stderr, gitRequests: served?.requests().total ?? -1 };
}

/** What an entry is and where it came from; the pin's size is left out (it lists the capabilities granted). */
function provenance(entry: AssembledTurn['entries'][number]) {
  return [entry.provider, entry.title, entry.source.path, entry.source.revision, entry.title === 'Pinned commit' ? 0 : entry.chars];
}

describe('groundwork run', () => {
  let repo: GitFixture;
  let state: string;
  let facts: string;

  beforeAll(() => {
    repo = createGitRepo();
    repo.write('AGENTS.md', '# Rules\nRun the tests before you push.\n');
    repo.write('services/auth/AGENTS.md', 'Tokens never reach logs.\n');
    repo.write('.agents/skills/tdd/SKILL.md', '---\nname: tdd\ndescription: Write the failing test first, then the fix.\n---\nRed, green, refactor.\n');
    repo.commitAll('rules and a skill');
    state = mkdtempSync(join(tmpdir(), 'groundwork-run-state-'));
    facts = join(state, 'facts.json');
    writeFileSync(facts, JSON.stringify([{ title: 'Node.js', body: 'node 22.12.0 on the devbox', freshness: 'snapshot', source: { uri: 'https://ci.example.com/runners/7' } }]));
  });
  afterAll(() => {
    repo.remove();
    rmSync(state, { recursive: true, force: true });
  });

  it(
    'assembles through the Worker the same turn as groundwork context does (earlier tasks aside), and a second run fetches nothing and is shown the first',
    async () => {
      const inputs = ['--repo', repo.dir, '--cwd', 'services/auth', '--task', 'Fix the login bug. Use $tdd.', '--agent', 'reviewer', '--facts', facts];
      const local = await runCliJson(inputs);
      // An edit the user has not committed: both hosts show HEAD, and run says so as context does.
      repo.write('AGENTS.md', '# Rules\nEdited, not committed.\n');

      const first = await runInProcess([...inputs, '--state', state, '--json']);
      expect(first.code, first.stderr).toBe(0);
      const served = AssembledTurnSchema.parse(JSON.parse(first.stdout));
      // The one difference: the local instance keeps tasks (tasks:read granted, none earlier yet), the
      // CLI keeps none (a notice says so, and the pin lists one capability fewer).
      expect(local.providers.find((p) => p.name === 'history')).toMatchObject({ outcome: 'capability-gated', reason: 'tasks:read is not available for this task' });
      expect(served.providers.find((p) => p.name === 'history')).toMatchObject({ outcome: 'empty' });
      expect(served.system).toEqual(local.system);
      expect(served.tools).toEqual(local.tools);
      expect(served.agentHash).toBe(local.agentHash);
      expect(served.entries.map(provenance)).toEqual(local.entries.map(provenance));
      // The host's facts reached both the same way: POST /tasks's facts, --facts locally.
      expect(served.entries.filter((e) => e.provider === 'host').map((e) => [e.title, e.source.uri])).toEqual([['Node.js', 'https://ci.example.com/runners/7']]);
      expect(served.entries.filter((e) => e.category !== 'system').map((e) => e.source.path)).toEqual(['AGENTS.md', 'services/auth/AGENTS.md', '.agents/skills', '.agents/skills/tdd/SKILL.md']);
      expect(first.gitRequests).toBeGreaterThan(0);
      expect(first.stderr).toContain('warning: AGENTS.md has uncommitted changes; showing HEAD');
      expect(first.stderr).toMatch(/Worker ready in \d+ ms/);
      expect(first.stderr).toMatch(/ready {2}\+\d+ ms/);

      const second = await runInProcess([...inputs, '--state', state, '--json']);
      expect(second.code, second.stderr).toBe(0);
      const again = AssembledTurnSchema.parse(JSON.parse(second.stdout));
      expect(again.entries.filter((e) => e.provider === 'history').map((e) => e.source.revision)).toEqual([served.commit]);
      expect(again.digest).not.toBe(served.digest);
      expect(second.gitRequests).toBe(0);
      expect(second.stderr).toContain('git requests to the repository: 0 (0 fetches), all from the KV cache');
    },
    BOOT_TIMEOUT,
  );

  it(
    'runs later turns through the turn protocol with --turns, pinned by an ancestry such as HEAD^0',
    async () => {
      // The service takes ref names only: an ancestry is sent as the commit it resolved to here.
      const run = await runInProcess(['--repo', repo.dir, '--ref', 'HEAD^0', '--state', state, '--turns', '2', '--json']);
      expect(run.code, run.stderr).toBe(0);
      const turns = AssembledTurnSchema.array().parse(JSON.parse(run.stdout));
      expect(turns.map((t) => t.turn)).toEqual([0, 1]);
      expect(turns[0]?.commit).toBe(repo.git('rev-parse', 'HEAD'));
      // Every default provider but freshness is first-turn; freshness finds nothing moved, so turn 1 appends nothing.
      expect(turns[1]?.providers.map((p) => [p.name, p.outcome])).toEqual([
        ['freshness', 'empty'],
        ['host', 'turn-gated'],
        ['system', 'turn-gated'],
        ['task-facts', 'turn-gated'],
        ['rules', 'turn-gated'],
        ['skills', 'turn-gated'],
        ['history', 'turn-gated'],
        ['memory', 'turn-gated'],
      ]);
      expect(turns[1]?.messages).toEqual(turns[0]?.messages);
    },
    BOOT_TIMEOUT,
  );

  it('refuses bad usage before starting anything', async () => {
    const run = await runInProcess(['--repo', repo.dir, '--turns', '0']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--turns: must be at least 1');
    expect(run.gitRequests).toBe(-1);
    const badFacts = await runInProcess(['--repo', repo.dir, '--facts', join(state, 'missing-facts.json')]);
    expect(badFacts.code).toBe(2);
    expect(badFacts.stderr).toMatch(/^groundwork run: --facts: cannot read /);
    expect(badFacts.gitRequests).toBe(-1);
  });

  it(
    'keeps the service up with --keep (answering a push check in the local repository’s terms), and Ctrl-C stops it and every process it started',
    async () => {
      const child = spawn(process.execPath, [BUILT_CLI, 'run', '--repo', repo.dir, '--state', state, '--keep'], { stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      child.stdout.resume();
      const banner = new Promise<void>((resolve, reject) => {
        child.stderr.on('data', (chunk: Buffer) => {
          stderr += chunk.toString();
          if (stderr.includes('Press Ctrl-C to stop.')) resolve();
        });
        child.on('exit', () => reject(new Error(`exited before serving: ${stderr}`)));
      });
      await banner;
      const url = /Groundwork is running at (http:\/\/127\.0\.0\.1:\d+)/.exec(stderr)?.[1];
      const token = /token: ([0-9a-f]+)/.exec(stderr)?.[1];
      const listed = await fetch(`${url}/tasks`, { headers: { authorization: `Bearer ${token}` } });
      expect(listed.status).toBe(200);
      const [task] = ((await listed.json()) as { tasks: Array<{ id: string }> }).tasks;
      // The banner's inspector link opens the run's task page without a token.
      const inspector = /inspector: (http:\/\/127\.0\.0\.1:\d+\/tasks\/([0-9a-f]{64})\/view\?exp=\d+&sig=[0-9a-f]{64})/.exec(stderr);
      expect(inspector?.[2]).toBe(task?.id);
      expect((await fetch(inspector?.[1] ?? '')).status).toBe(200);
      // The push check reads the branch in the repository itself: a commit made there since moves
      // it, and the reason says so without claiming a push to a remote there is none of.
      const check = async () => {
        const res = await fetch(`${url}/tasks/${task?.id}/checks`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ action: 'push', branch: 'main' }) });
        expect(res.status).toBe(200);
        return (await res.json()) as { verdict: string; reasons: string[] };
      };
      const pinned = repo.git('rev-parse', 'HEAD');
      expect(await check()).toMatchObject({ verdict: 'go', reasons: [`main is still at ${pinned.slice(0, 7)} in the local repository, the commit you built on`] });
      repo.write('NOTES.md', 'A commit made after the task was pinned.\n');
      const later = repo.commitAll('later');
      expect(await check()).toMatchObject({ verdict: 'stop', reasons: [`main moved: it is at ${later.slice(0, 7)} in the local repository, not ${pinned.slice(0, 7)} you built on`] });
      const started = descendants(child.pid ?? -1);
      expect(started.length).toBeGreaterThan(0);

      child.kill('SIGINT');
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect(code).toBe(0);
      expect(started.filter(alive)).toEqual([]);
      await expect(fetch(`${url}/health`)).rejects.toThrow();
    },
    BOOT_TIMEOUT,
  );
});

/** Every process below `pid`, read from /proc. */
function descendants(pid: number): number[] {
  const parents = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(Number(name), ppid);
    } catch {
      // The process ended while we looked.
    }
  }
  const found: number[] = [];
  const visit = (parent: number): void => {
    for (const [child, ppid] of parents) if (ppid === parent) found.push(child), visit(child);
  };
  visit(pid);
  return found;
}

function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/\) Z /.test(stat);
  } catch {
    return false;
  }
}

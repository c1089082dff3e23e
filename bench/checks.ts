/**
 * Checks before an action (issue 26): requests each check costs, through the same checks the
 * Task object runs (`runCheck` with the task's repository source, GitHub reads and a KV of its
 * own), against the local GitHub API server (200 ms added to every answer so requests issued
 * together overlap and rounds can be told apart) and a smart-HTTP git remote. Each check is made
 * twice: cold (a KV holding only what turn 0 read) and warm (the same check again). push,
 * report-ci and merge read only what can move, so warm costs what cold does; apply-knowledge
 * reads where the ref is now and, after a push, that commit's tree, which the KV then keeps.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import type { CheckRequest } from '../src/checks/check-request.ts';
import type { CheckReads, CheckTask, KnowledgeVersions, RenderedKnowledge } from '../src/checks/check-task.ts';
import { CHECK_DEADLINE_MS, runCheck } from '../src/checks/run-check.ts';
import type { Knowledge } from '../src/context/knowledge.ts';
import { createCachedLoader } from '../src/sources/cached-loader.ts';
import { createRemoteGitSource } from '../src/sources/git/remote-source.ts';
import { createGitHubSource, tokenAuth } from '../src/sources/github/index.ts';
import { createGitHubApi } from '../src/sources/github/pull-request-files.ts';
import type { KeyValueStore } from '../src/sources/key-value-store.ts';
import { serveWithHttpBackend } from '../src/cli/run/git-http-backend.ts';
import { cloneBare, createGitRepo, gitEnv, type GitFixture } from '../test/support/git-fixtures.ts';
import { rounds } from '../test/support/github-api-scope.ts';
import { startLocalGitHub } from './local-github.ts';
import { mapStore } from './sources.ts';

const LATENCY_MS = 200;
const TOKEN = 'ghp_bench_checks_token';
const CITED = ['AGENTS.md', 'docs/deploy.md', 'docs/style.md'];

export async function benchChecks(): Promise<string[]> {
  return [...(await benchGitHub()), ...(await benchGitRemote())];
}

interface Counted {
  reads: (store: KeyValueStore) => CheckReads;
  take(): Promise<string>;
}

/** Knowledge citing each file at `commit`, with the blob it had there, and a store holding it as current. */
function knowledgeAt(repo: GitFixture, commit: string): { rendered: RenderedKnowledge[]; lookup: (id: string) => Promise<KnowledgeVersions>; reads: () => number } {
  let count = 0;
  const objects = CITED.map((path, i): Knowledge => ({
    id: `k_${'a'.repeat(64)}_${String(i).padStart(16, '0')}`,
    repository: 'bench',
    kind: 'fact',
    statement: `About ${path}.`,
    source: { uri: `https://wiki.example.test/${path}`, path, revision: commit },
    author: 'bench',
    createdAt: '2026-11-01T00:00:00.000Z',
    reviewBy: '2099-01-01',
    status: 'active',
    version: 1,
  }));
  return {
    rendered: objects.map((k) => ({ id: k.id, kind: k.kind, reviewBy: k.reviewBy, source: { uri: k.source.uri, path: k.source.path ?? '', revision: commit, blob: repo.git('rev-parse', `${commit}:${k.source.path ?? ''}`) } })),
    lookup: async (id) => {
      count++;
      const found = objects.find((k) => k.id === id);
      return found ? { status: 'ok', versions: [found] } : { status: 'not-found' };
    },
    reads: () => count,
  };
}

async function measure(counted: Counted, task: CheckTask, request: CheckRequest, store: KeyValueStore, note: () => string = () => ''): Promise<string> {
  const once = async () => {
    const result = await runCheck({ task, request, reads: counted.reads(store), deadlineMs: CHECK_DEADLINE_MS });
    return `${await counted.take()} -> ${result.verdict}${note()}`;
  };
  const cold = await once();
  const warm = await once();
  return `cold ${cold} / warm ${warm}`;
}

function writeRepo(repo: GitFixture): string {
  repo.write('AGENTS.md', '# Rules\n\nRun the tests.\n');
  repo.write('docs/deploy.md', 'Deploy with make ship.\n');
  repo.write('docs/style.md', 'Tabs.\n');
  for (let i = 0; i < 20; i++) repo.write(`src/module-${i}.ts`, `export const n = ${i};\n`);
  return repo.commitAll('bench');
}

async function benchGitHub(): Promise<string[]> {
  const repo = createGitRepo();
  try {
    const pinned = writeRepo(repo);
    repo.git('checkout', '--quiet', '-b', 'feature');
    repo.write('src/feature.ts', 'export const feature = true;\n');
    const head = repo.commitAll('feature');
    repo.git('checkout', '--quiet', 'main');
    const server = await startLocalGitHub({ repoDir: repo.dir, owner: 'acme', repo: 'widgets', token: TOKEN, pulls: [{ number: 1, base: { ref: 'main', rev: 'main' }, head: { ref: 'feature', rev: 'feature' } }] });
    try {
      const control = (path: string, body: unknown) => fetch(`${server.origin}${path}`, { method: 'POST', body: JSON.stringify(body) }).then((response) => response.body?.cancel());
      await control(`/__github/checks/${head}`, { checkRuns: Array.from({ length: 5 }, (_, i) => ({ name: `job-${i}`, conclusion: 'success' })), statuses: [{ context: 'ci/lint', state: 'success' }, { context: 'ci/docs', state: 'success' }] });
      await control('/__github/pulls/1', { reviews: [{ login: 'ada', state: 'APPROVED', commit: head }] });
      const knowledge = knowledgeAt(repo, pinned);
      let scopes = 0;
      const open = async (): Promise<Counted> => {
        const name = `checks-${++scopes}`;
        const baseUrl = `${server.origin}/s/${name}`;
        await control(`/__control/${name}`, { latencyMs: LATENCY_MS });
        let seen = 0;
        const client = { owner: 'acme', repo: 'widgets', auth: tokenAuth(TOKEN), baseUrl };
        return {
          reads: (store) => ({
            source: createGitHubSource({ ...client, wrapLoader: (loader, scope) => createCachedLoader(loader, store, scope) }),
            github: createGitHubApi(client),
            knowledge: (id) => knowledge.lookup(id),
            now: Date.now,
          }),
          async take() {
            const stats = Stats.parse(await (await fetch(`${server.origin}/__stats/${name}`)).json());
            const fresh = stats.requests.slice(seen);
            seen = stats.requests.length;
            const kind = (pattern: RegExp) => fresh.filter((request) => pattern.test(request.path)).length;
            const kinds = [
              [kind(/\/pulls\/\d+$/), 'pull request'],
              [kind(/\/reviews\b/), 'reviews'],
              [kind(/\/check-runs\b/), 'check runs'],
              [kind(/\/status\b/), 'statuses'],
              [kind(/\/commits\/[^/?]+$|\/commits\/[^/?]+\?/), 'ref'],
              [kind(/\/git\/trees\//), 'tree'],
              [kind(/\/git\/blobs\//), 'blob'],
              [kind(/\/graphql$/), 'GraphQL'],
            ]
              .filter(([n]) => Number(n) > 0)
              .map(([n, what]) => `${n} ${what}`)
              .join(', ');
            return `${fresh.length} request${fresh.length === 1 ? '' : 's'}${kinds ? ` (${kinds})` : ''}, ${rounds(fresh)} round${rounds(fresh) === 1 ? '' : 's'}`;
          },
        };
      };
      const pullTask: CheckTask = { repository: 'acme/widgets', commit: pinned, pullRequest: { number: 1, headSha: head, headRef: 'feature', baseRef: 'main', fromFork: false }, knowledge: [] };
      const branchTask: CheckTask = { repository: 'acme/widgets', commit: pinned, ref: 'main', knowledge: knowledge.rendered };
      const lines: string[] = [];
      lines.push(`github, push (pull request: head, state and base): ${await measure(await open(), pullTask, { action: 'push' }, mapStore())}`);
      lines.push(`github, push (a branch task): ${await measure(await open(), branchTask, { action: 'push' }, mapStore())}`);
      lines.push(`github, report-ci (pull request head: 5 check runs, 2 statuses): ${await measure(await open(), pullTask, { action: 'report-ci' }, mapStore())}`);
      lines.push(`github, merge (state, reviews, checks of the reviewed head): ${await measure(await open(), pullTask, { action: 'merge' }, mapStore())}`);
      const still = mapStore();
      let storeReads = 0;
      const perCheck = () => {
        const n = knowledge.reads() - storeReads;
        storeReads = knowledge.reads();
        return `, ${n} knowledge store reads`;
      };
      lines.push(`github, apply-knowledge (3 objects citing files; the ref has not moved): ${await measure(await open(), branchTask, { action: 'apply-knowledge' }, still, perCheck)}`);
      repo.write('AGENTS.md', '# Rules\n\nRun the tests and the linter.\n');
      repo.commitAll('moved');
      lines.push(`github, apply-knowledge after a push (the new commit's tree: cold reads it, warm has it in the KV): ${await measure(await open(), branchTask, { action: 'apply-knowledge' }, mapStore(), perCheck)}`);
      return lines;
    } finally {
      await server.close();
    }
  } finally {
    repo.remove();
  }
}

async function benchGitRemote(): Promise<string[]> {
  const root = mkdtempSync(join(tmpdir(), 'groundwork-bench-checks-'));
  const work = createGitRepo();
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    serveWithHttpBackend({ projectRoot: root, pathInfo: decodeURIComponent(url.pathname), query: url.search.slice(1), env: gitEnv() }, req, res);
  });
  try {
    const pinned = writeRepo(work);
    work.git('remote', 'add', 'origin', cloneBare(work, root, 'bench.git'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/bench.git`;
    const knowledge = knowledgeAt(work, pinned);
    const requests: string[] = [];
    const counted: Counted = {
      reads: (store) => ({
        source: createRemoteGitSource(url, {
          fetch: async (input, init) => {
            const request = new Request(input, init);
            const path = new URL(request.url).pathname;
            requests.push(`${request.method} ${path.slice(path.lastIndexOf('/') + 1)}`);
            return fetch(request);
          },
          cache: { store },
        }),
        knowledge: (id) => knowledge.lookup(id),
        now: Date.now,
      }),
      async take() {
        const fresh = requests.splice(0);
        const count = (part: string) => fresh.filter((request) => request.includes(part)).length;
        return `${fresh.length} requests (${count('GET refs')} GET info/refs, ${count('POST git-upload-pack')} POST git-upload-pack)`;
      },
    };
    const task: CheckTask = { repository: url, commit: pinned, ref: 'main', knowledge: knowledge.rendered };
    const lines = [`git remote, push: ${await measure(counted, task, { action: 'push' }, mapStore())}`, `git remote, report-ci (no checks API, nothing read): ${await measure(counted, task, { action: 'report-ci' }, mapStore())}`];
    work.write('AGENTS.md', '# Rules\n\nRun the tests and the linter.\n');
    work.commitAll('moved');
    work.git('push', '--quiet', 'origin', 'main');
    lines.push(`git remote, apply-knowledge after a push (cold fetches the new commit, warm has it in the KV): ${await measure(counted, task, { action: 'apply-knowledge' }, mapStore())}`);
    return lines;
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    work.remove();
    rmSync(root, { recursive: true, force: true });
  }
}

const Stats = z.object({ requests: z.array(z.object({ method: z.string(), path: z.string(), status: z.number(), startedAt: z.number(), endedAt: z.number() })) });

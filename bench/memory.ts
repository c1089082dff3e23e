/**
 * Memory provider benchmarks (issue 13), side by side in one run:
 * - through `wrangler dev --local`: the memory provider's time (its outcome's `durationMs`, as the
 *   Task object measured it) for tasks whose knowledge scope holds 1,000 objects and, under a
 *   second tenant, 10 objects of the same repository. The provider reads its scope with one call
 *   to the scope's Durable Object, which parses its rows after each write and serves them parsed
 *   until the next; both cases are measured. Tasks run as the `communicator` agent, which has no repository
 *   access, so no provenance check adds reads and the time is the store call and the selection.
 *   workerd advances its clock only across I/O, so in-Worker time covers the call and not the
 *   computation after it; the Node line below measures that part.
 * - in Node: the provider's selection, budgeting and rendering of 1,000 objects from an
 *   in-memory reader, through the runner.
 * GitHub is the tests' local GitHub API server on its own thread; nothing leaves the machine.
 */
import { z } from 'zod';
import { grantCapabilities } from '../src/context/capabilities.ts';
import type { Knowledge, KnowledgeReader } from '../src/context/knowledge.ts';
import { createRegistry } from '../src/context/registry.ts';
import { runProviders } from '../src/context/runner.ts';
import { createMemoryProvider } from '../src/providers/memory/provider.ts';
import { createGitRepo } from '../test/support/git-fixtures.ts';
import { startLocalGitHub } from './local-github.ts';
import { startWranglerDev } from './wrangler-dev.ts';

const OBJECTS = 1_000;
const FEW = 10;
/** Rounds of: one write, a task (the scope parses its rows), another task (served parsed). */
const ROUNDS = 6;
const CONCURRENCY = 16;
const OWNER = 'acme';
const REPO = 'widgets';
const TOKENS = { large: 'bench-large-token-0123456789', small: 'bench-small-token-0123456789' };

const Task = z.object({
  status: z.string(),
  reason: z.string().nullable(),
  turns: z.array(z.object({ providers: z.array(z.object({ name: z.string(), outcome: z.string(), durationMs: z.number(), reason: z.string().optional() })) })),
});

export async function benchMemory(): Promise<string[]> {
  const repo = createGitRepo();
  try {
    repo.write('AGENTS.md', '# Bench\n');
    repo.write('src/app/index.ts', 'export {};\n');
    repo.commitAll('bench');
    const github = await startLocalGitHub({ repoDir: repo.dir, owner: OWNER, repo: REPO, token: 'ghp_bench_memory_token' });
    try {
      const wrangler = await startWranglerDev({
        API_TOKENS: `large=${TOKENS.large},small=${TOKENS.small}`,
        GITHUB_TOKEN: 'ghp_bench_memory_token',
        GITHUB_API_URL: `${github.origin}/s/bench-memory`,
      });
      try {
        return [...(await measureInWorker(wrangler.origin)), await measureInNode()];
      } finally {
        await wrangler.stop();
      }
    } finally {
      await github.close();
    }
  } finally {
    repo.remove();
  }
}

async function measureInWorker(origin: string): Promise<string[]> {
  const call = async (token: string, method: string, path: string, body?: unknown) => {
    const response = await fetch(`${origin}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const json: unknown = await response.json();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json).slice(0, 300)}`);
    return json;
  };
  const fill = async (token: string, count: number) => {
    let next = 0;
    const writer = async () => {
      for (let i = next++; i < count; i = next++) await call(token, 'POST', '/knowledge', knowledgeBody(i));
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, writer));
  };
  const started = performance.now();
  await fill(TOKENS.large, OBJECTS);
  const fillSeconds = (performance.now() - started) / 1000;
  await fill(TOKENS.small, FEW);

  const memoryMs = async (token: string) => {
    const task = async () => {
      const created = z.object({ id: z.string() }).parse(await call(token, 'POST', '/tasks', { repo: `${OWNER}/${REPO}`, request: 'Summarise the deploy playbook for src/app/index.ts.', cwd: 'src/app', agent: 'communicator' }));
      const done = await settled(() => call(token, 'GET', `/tasks/${created.id}`));
      const memory = done.turns[0]?.providers.find((provider) => provider.name === 'memory');
      if (done.status !== 'ready' || memory?.outcome !== 'included') throw new Error(`memory bench task ${created.id}: ${done.status} ${JSON.stringify(memory)}`);
      return memory.durationMs;
    };
    const cold: number[] = [];
    const warm: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      // A write makes the scope parse its rows again on the next read; the read after that is served parsed.
      await call(token, 'POST', '/knowledge', knowledgeBody(round));
      cold.push(await task());
      warm.push(await task());
    }
    return { cold, warm };
  };
  const large = await memoryMs(TOKENS.large);
  const small = await memoryMs(TOKENS.small);
  const line = (label: string, times: { cold: number[]; warm: number[] }) =>
    `${label}: first read after a write median ${median(times.cold)} ms (max ${Math.max(...times.cold)}), later reads median ${median(times.warm)} ms (max ${Math.max(...times.warm)})`;
  return [
    `memory provider through wrangler dev, one knowledge Durable Object call per task, ${ROUNDS} rounds: ${line(`${OBJECTS} objects in scope`, large)}; ${line(`${FEW} objects`, small)}`,
    `filling the scope: ${OBJECTS} POST /knowledge through wrangler dev in ${fillSeconds.toFixed(1)} s (${Math.round(OBJECTS / fillSeconds)}/s, ${CONCURRENCY} at a time)`,
  ];
}

async function settled(read: () => Promise<unknown>): Promise<z.infer<typeof Task>> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const task = Task.parse(await read());
    if (task.status === 'ready' || task.status === 'failed') return task;
    if (Date.now() > deadline) throw new Error(`task still ${task.status}: ${task.reason ?? ''}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Realistic mix: most objects about a directory, some about the whole repository, statements of a few sentences. */
function knowledgeBody(i: number) {
  const dirs = ['src/app', 'src/lib', 'docs', 'services/api', 'services/worker', 'tools'];
  return {
    repo: `${OWNER}/${REPO}`,
    kind: (['fact', 'playbook', 'decision', 'task-summary'] as const)[i % 4],
    statement: `Knowledge ${i}: ${'When you change this area, run the focused tests first and update the changelog. '.repeat(2 + (i % 4))}`,
    source: { uri: `https://wiki.example.test/page/${i}` },
    ...(i % 5 === 0 ? {} : { paths: [dirs[i % dirs.length]] }),
  };
}

async function measureInNode(): Promise<string> {
  const objects: Knowledge[] = Array.from({ length: OBJECTS }, (_, i) => {
    const body = knowledgeBody(i);
    return {
      id: `k_${'0'.repeat(64)}_${i.toString(16).padStart(16, '0')}`,
      repository: 'github:github.com/acme/widgets',
      kind: body.kind ?? 'fact',
      statement: body.statement,
      ...(body.paths?.[0] ? { paths: [body.paths[0]] } : {}),
      source: body.source,
      author: 'api:bench',
      createdAt: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
      reviewBy: '2099-01-01',
      status: 'active',
      version: 1,
    };
  });
  const reader: KnowledgeReader = { active: async () => objects };
  const registry = createRegistry([createMemoryProvider()]);
  const capabilities = grantCapabilities({ agent: { name: 'communicator', capabilities: ['knowledge:read'] }, trusted: true, available: ['knowledge:read'] });
  const task = { request: 'Summarise the deploy playbook for src/app/index.ts.', origin: 'api' as const, cwd: 'src/app', focusPaths: [], trusted: true, skills: [], agent: 'communicator' };
  const times: number[] = [];
  for (let round = 0; round < 30; round++) {
    const started = performance.now();
    await runProviders({ registry, selection: 'all', task, turn: 0, capabilities, knowledge: reader, totalBudget: 8_000 });
    times.push(performance.now() - started);
  }
  // The first rounds pay for JIT compilation.
  const steady = times.slice(5);
  return `memory provider in Node on ${OBJECTS} objects from an in-memory reader (select, budget, render; no store call): median ${median(steady).toFixed(1)} ms, max ${Math.max(...steady).toFixed(1)} ms over ${steady.length} runs`;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

/**
 * Context pipeline benchmarks: assembly overhead against the slowest provider, and render speed.
 * Ratios are measured side by side in one run, so a noisy machine moves both sides together.
 */
import { z } from 'zod';
import { agentHash, resolveAgent } from '../src/context/agent-catalog.ts';
import type { ContextEntry } from '../src/context/outcome.ts';
import { defineProvider, type Provider, type TaskView } from '../src/context/provider.ts';
import { createRegistry } from '../src/context/registry.ts';
import { renderFirstRequest } from '../src/context/render.ts';
import { digestRequest } from '../src/context/digest.ts';
import { assembleFirstTurn } from '../src/context/turn.ts';

const COMMIT = 'c'.repeat(40);
const task: TaskView = { request: 'bench', origin: 'cli', commit: COMMIT, cwd: '', focusPaths: [], trusted: true, skills: [], agent: 'entry' };
const lookup = resolveAgent('entry');
if (!lookup.ok) throw new Error(lookup.error);
const agent = lookup.agent;

function delayedProvider(name: string, delayMs: number): Provider {
  return defineProvider({
    name,
    category: 'rules',
    config: z.object({}),
    requires: [],
    turns: 'all',
    timeoutMs: 5_000,
    budget: 2_000,
    async run() {
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      return [{ title: name, body: `${name} `.repeat(50), source: { uri: `bench:${name}`, path: `${name}.md`, revision: COMMIT }, freshness: 'pinned' }];
    },
  });
}

export async function benchAssembly(rounds = 20): Promise<string[]> {
  const ratios: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const delays = Array.from({ length: 20 }, () => 20 + Math.floor(Math.random() * 180));
    const registry = createRegistry(delays.map((delay, i) => delayedProvider(`p${String(i).padStart(2, '0')}`, delay)));
    const started = performance.now();
    await assembleFirstTurn({ registry, agent, available: [], task, turn: 0 });
    ratios.push((performance.now() - started) / Math.max(...delays));
  }
  ratios.sort((a, b) => a - b);
  const median = ratios[Math.floor(ratios.length / 2)] ?? NaN;
  const worst = ratios[ratios.length - 1] ?? NaN;
  return [`assembly of 20 providers / slowest delay: median ${median.toFixed(3)}, worst ${worst.toFixed(3)} over ${rounds} rounds (goal <= 1.10)`];
}

export async function benchRender(seconds = 2): Promise<string[]> {
  const entries: ContextEntry[] = Array.from({ length: 200 }, (_, i) => {
    const body = `Rule ${i}: keep functions small. 漢字 ✓ </groundwork-context> `.repeat(20);
    return {
      title: `rules-${i}`,
      body,
      source: { uri: `bench:${i}`, path: `dir${i}/AGENTS.md`, revision: COMMIT },
      freshness: 'pinned',
      warnings: [],
      provider: 'rules',
      category: 'rules',
      chars: body.length,
      tokens: 0,
      truncated: false,
      stability: 'commit',
    };
  });
  const measure = async (work: () => unknown): Promise<number> => {
    let count = 0;
    const started = performance.now();
    while (performance.now() - started < seconds * 1000) {
      await work();
      count++;
    }
    return count / ((performance.now() - started) / 1000);
  };
  const render = () => renderFirstRequest({ agent, task, entries, notices: [] });
  const renders = await measure(render);
  const settings = { layers: [], providers: [], warnings: [] };
  const hash = await agentHash(agent);
  const digested = await measure(() => digestRequest(render(), settings, hash));
  return [`renders of a 200-entry context: ${renders.toFixed(0)}/s; render + digest: ${digested.toFixed(0)}/s`];
}

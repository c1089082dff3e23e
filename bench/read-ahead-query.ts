/**
 * The GraphQL read-ahead's query for bench/first-turn's pull request (changed files in 20
 * packages, the reviewer's plan as the Task object makes it): its length, the request body's, and
 * what parsing and validating it costs graphql-js against the test server's schema, beside the
 * same query with every fragment spelled out at each alias (the text before 2026-12-07 22:00).
 * GitHub parses and validates every query it is sent; the test server keeps what it validated, so
 * bench/first-turn's round trips do not show this. Medians of interleaved rounds, in one run.
 */
import { parse, validate } from 'graphql';
import { resolveAgent } from '../src/context/agent-catalog.ts';
import type { Capability, TaskView } from '../src/context/provider.ts';
import { planReads } from '../src/context/read-ahead.ts';
import { createDefaultRegistry } from '../src/providers/registry.ts';
import { readAheadQuery } from '../src/sources/github/graphql-query.ts';
import { GITHUB_GRAPHQL_SCHEMA } from '../test/support/github-graphql.ts';
import { PACKAGES, PULL } from './focus-reads.ts';

const ROUNDS = 21;

export function benchReadAheadQuery(): string[] {
  const lookup = resolveAgent('reviewer');
  if (!lookup.ok) throw new Error(lookup.error);
  const files = Array.from({ length: PACKAGES }, (_, i) => `packages/p${String(i + 1).padStart(2, '0')}/src/index.ts`);
  const task: TaskView = {
    request: 'Review this pull request.',
    origin: 'github',
    repository: 'acme/mono',
    cwd: '',
    focusPaths: files,
    trusted: true,
    skills: [],
    agent: lookup.agent.name,
    pullRequest: { number: PULL, headSha: 'f'.repeat(40), fromFork: false, changedFiles: PACKAGES },
  };
  const available: Capability[] = ['repo:read', 'github:api'];
  const plan = planReads({ registry: createDefaultRegistry(), agent: lookup.agent, task, turn: 0, available, focusFiles: files });
  const { query, variables } = readAheadQuery({ owner: 'acme', name: 'mono', rev: 'e'.repeat(40), plan });
  const spelledOut = inlineFragments(query);
  const body = (text: string) => JSON.stringify({ query: text, variables }).length;
  const checked = (text: string): number => {
    const started = performance.now();
    const errors = validate(GITHUB_GRAPHQL_SCHEMA, parse(text));
    const ms = performance.now() - started;
    if (errors.length > 0) throw new Error(`read-ahead query: ${errors[0]?.message}`);
    return ms;
  };
  const ours: number[] = [];
  const before: number[] = [];
  // The first round warms graphql-js; the two texts take turns going first.
  for (let round = 0; round <= ROUNDS; round++) {
    let mineMs: number;
    let theirsMs: number;
    if (round % 2 === 0) {
      mineMs = checked(query);
      theirsMs = checked(spelledOut);
    } else {
      theirsMs = checked(spelledOut);
      mineMs = checked(query);
    }
    if (round === 0) continue;
    ours.push(mineMs);
    before.push(theirsMs);
  }
  const [mine, theirs] = [median(ours), median(before)];
  return [
    `read-ahead query for a pull request changing files in ${PACKAGES} packages (${plan.dirs.length} directories, ${plan.files.length} files, ${plan.walks.length} walks planned): ` +
      `${query.length} characters, a ${body(query)}-byte request body, parsed and validated by graphql-js in ${mine.toFixed(1)} ms (median of ${ROUNDS}); ` +
      `each fragment spelled out at its aliases: ${spelledOut.length} characters, ${body(spelledOut)} bytes, ${theirs.toFixed(1)} ms; ratio ${(mine / theirs).toFixed(2)}x`,
  ];
}

/** The query with each TreeEntry fragment's selection written at every spread of it, and no definitions. */
function inlineFragments(query: string): string {
  const lines = query.split('\n');
  const fragments = new Map<string, string>();
  for (const line of lines) {
    const match = /^fragment (\w+) on TreeEntry \{ (.*) \}$/.exec(line);
    if (match?.[1] && match[2] !== undefined) fragments.set(match[1], match[2]);
  }
  return lines
    .filter((line) => !/^fragment \w+ on TreeEntry /.test(line))
    .join('\n')
    .replace(/\{ \.\.\.(\w+) \}/g, (spread, name: string) => {
      const selection = fragments.get(name);
      return selection === undefined ? spread : `{ ${selection} }`;
    });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? NaN;
}

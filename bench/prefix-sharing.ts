/**
 * Prompt-cache prefix benchmarks (issue 12), through the default providers (system, rules, skills) on real
 * git repositories, in every request format:
 * - two tasks on one commit and working directory with different requests (one selects a
 *   skill, one does not): the share of each first request that is a byte-identical prefix of
 *   the other's, in tokens of the prompt as the vendor reads it (`promptText`);
 * - one task's turn n against turn n+1 after a model reply, tool results and a later turn's
 *   context were appended: the share of turn n's request that turn n+1 starts with.
 * Fixtures: the demo project (examples/calculator, cwd src), a larger repository (an
 * AGENTS.md chain five levels deep of realistic length and 30 skills), and a monorepo whose
 * packages keep their own skills, with two tasks focused on different packages (their nested
 * skills are a task-stable index after the shared one).
 */
import { cpSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { resolveAgent } from '../src/context/agent-catalog.ts';
import { FORMATS, formatRequest, type Format } from '../src/context/formats/format.ts';
import { promptFromTurn, type PromptInput } from '../src/context/formats/prompt.ts';
import { promptText, sharedPrefix } from '../src/context/formats/prompt-prefix.ts';
import { countTokens } from '../src/context/tokens.ts';
import type { TranscriptItem } from '../src/context/transcript.ts';
import { assembleFirstTurn } from '../src/context/turn.ts';
import { createDefaultRegistry } from '../src/providers/registry.ts';
import { createLocalGitSource } from '../src/sources/git/local-source.ts';
import { createGitRepo, type GitFixture } from '../test/support/git-fixtures.ts';
import { repoShape, writeRepoShape } from './repo-shape.ts';

interface Fixture {
  name: string;
  repo: GitFixture;
  cwd: string;
  /** Two requests; the first selects a skill. */
  requests: [string, string];
  /** The two tasks' focus paths, when they have any. */
  focus?: [string[], string[]];
}

export async function benchPrefixSharing(): Promise<string[]> {
  const fixtures = [demoFixture(), largerFixture(), monorepoFixture()];
  const focused = focusedFixture();
  try {
    const lines: string[] = [];
    for (const fixture of fixtures) lines.push(...(await measure(fixture)));
    lines.push(await measureFocus(focused));
    return lines;
  } finally {
    for (const fixture of [...fixtures, focused]) fixture.repo.remove();
  }
}

/** A task with focus paths against the same task without: what the paths bring must come after the shared part. */
async function measureFocus(fixture: Fixture & { paths: string[] }): Promise<string> {
  const [request] = fixture.requests;
  const [plain, focused] = await Promise.all([firstPrompt(fixture, request), firstPrompt(fixture, request, fixture.paths)]);
  const shares = FORMATS.map((format) => {
    const [a, b] = [render(format, plain), render(format, focused)];
    return `${format} ${percent(sharedPrefix(a, b).bytes / bytes(a))} of ${tokens(a)}`;
  });
  return `${fixture.name}: a task with ${fixture.paths.length} focus paths against the same task without, shared byte-identical prefix of the one without: ${shares.join('; ')} (everything up to the task-dependent part)`;
}

async function measure(fixture: Fixture): Promise<string[]> {
  const [a, b] = await Promise.all(fixture.requests.map((request, i) => firstPrompt(fixture, request, fixture.focus?.[i] ?? [])));
  if (!a || !b) throw new Error('two prompts expected');
  const tasks = FORMATS.map((format) => {
    const [textA, textB] = [render(format, a), render(format, b)];
    const shared = sharedPrefix(textA, textB).bytes;
    return `${format} ${percent(shared / bytes(textA))} of ${tokens(textA)} / ${percent(shared / bytes(textB))} of ${tokens(textB)} tokens`;
  });
  const turns = FORMATS.map((format) => {
    const requests = conversation(a).map((prompt) => render(format, prompt));
    const worst = Math.min(...requests.slice(1).map((next, n) => sharedPrefix(requests[n] ?? '', next).share));
    return `${format} ${percent(worst)}`;
  });
  const context = a.items[0]?.type === 'message' ? (a.items[0].parts ?? []) : [];
  const stable = context.filter((part) => part.stability === 'commit').reduce((sum, part) => sum + countTokens(part.text), 0);
  const chosen = context.filter((part) => part.stability === 'task').reduce((sum, part) => sum + countTokens(part.text), 0);
  return [
    `${fixture.name}: two tasks on one commit and cwd, shared byte-identical prefix of each first request: ${tasks.join('; ')} (commit-stable context ${stable} tokens, task-dependent part incl. the task ${chosen}; goal >= 90% when the context is larger than the task)`,
    `${fixture.name}: turn n's request as a prefix of turn n+1's, worst of ${conversation(a).length - 1} turns: ${turns.join('; ')} (goal 100%)`,
  ];
}

async function firstPrompt(fixture: Fixture, request: string, focusPaths: string[] = []): Promise<PromptInput> {
  const lookup = resolveAgent('entry');
  if (!lookup.ok) throw new Error(lookup.error);
  const source = createLocalGitSource(fixture.repo.dir);
  const head = await source.resolve('HEAD');
  if (head.status !== 'ok') throw new Error(`HEAD did not resolve in ${fixture.repo.dir}`);
  const turn = await assembleFirstTurn({
    registry: createDefaultRegistry(),
    agent: lookup.agent,
    available: ['repo:read'],
    snapshot: source.snapshot(head.commit),
    task: { request, origin: 'cli', repository: source.repository, ref: 'HEAD', commit: head.commit, cwd: fixture.cwd, focusPaths, trusted: true, skills: [], agent: lookup.agent.name },
    turn: 0,
  });
  // As in the CLI: a local repository has no GitHub (task facts), no knowledge store (memory) and
  // no task store (history), the CLI states no host facts, and turn 0 gives freshness nothing to compare.
  const expected = (outcome: { name: string; outcome: string }) =>
    outcome.outcome === 'included' ||
    (outcome.outcome === 'capability-gated' && ['task-facts', 'memory', 'history'].includes(outcome.name)) ||
    (outcome.outcome === 'empty' && (outcome.name === 'freshness' || outcome.name === 'host'));
  const failed = turn.providers.filter((outcome) => !expected(outcome));
  if (failed.length > 0) throw new Error(`${fixture.name}: providers did not include: ${JSON.stringify(failed)}`);
  return promptFromTurn(turn);
}

/** Turn 0, then three more turns, each after a model reply with a tool call, its result and (on turn 2) fresh context. */
function conversation(first: PromptInput): PromptInput[] {
  const turns = [first];
  let items: TranscriptItem[] = [...first.items];
  for (let n = 1; n <= 3; n++) {
    items = [
      ...items,
      { id: `reply-${n}`, type: 'message', role: 'assistant', content: `Step ${n}: reading what I need.` },
      { id: `call-${n}`, type: 'tool_call', role: 'assistant', name: 'read_file', callId: `call_${n}`, arguments: { path: `src/file-${n}.js` } },
      { id: `result-${n}`, type: 'tool_result', role: 'tool', callId: `call_${n}`, content: `export const value${n} = ${n};\n`.repeat(20), isError: false },
      ...(n === 2 ? [{ id: `local:context:${n}`, type: 'context' as const, role: 'user' as const, content: '<groundwork-context provider="freshness">src/ moved on.</groundwork-context>' }] : []),
    ];
    turns.push({ ...first, items });
  }
  return turns;
}

function demoFixture(): Fixture {
  const repo = createGitRepo();
  cpSync(fileURLToPath(new URL('../examples/calculator', import.meta.url)), repo.dir, { recursive: true });
  repo.commitAll('Calculator example');
  return { name: 'demo', repo, cwd: 'src', requests: ['Add a square root operation. Use $add-operation.', 'Make division by zero throw a RangeError.'] };
}

function largerFixture(): Fixture {
  const repo = createGitRepo();
  const shape = repoShape('packages/app/src/server/api');
  writeRepoShape(repo, shape);
  shape.rulePaths.forEach((path, depth) => repo.write(path, rulesText(depth, depth === 0 ? 40 : 12)));
  repo.commitAll('larger fixture');
  return { name: 'larger', repo, cwd: shape.cwd, requests: ['Add rate limiting to the login endpoint. Use $skill-07.', 'Why does the session test time out on CI?'] };
}

/** The larger fixture with two more packages, each with rules of its own, for tasks that name them. */
function focusedFixture(): Fixture & { paths: string[] } {
  const fixture = largerFixture();
  fixture.repo.write('packages/lib/AGENTS.md', rulesText(7, 12));
  fixture.repo.write('packages/lib/src/index.ts', 'export {};\n');
  fixture.repo.write('packages/cli/AGENTS.md', rulesText(8, 12));
  fixture.repo.write('packages/cli/src/main.ts', 'export {};\n');
  fixture.repo.commitAll('two more packages');
  return { ...fixture, name: 'focused', paths: ['packages/lib/src/index.ts', 'packages/cli/src/main.ts'] };
}

function monorepoFixture(): Fixture {
  const repo = createGitRepo();
  repo.write('AGENTS.md', rulesText(0, 30));
  for (let i = 0; i < 6; i++) repo.write(`.agents/skills/shared-${i}/SKILL.md`, `---\nname: shared-${i}\ndescription: A skill every package uses, number ${i}, described at some length so the index has weight.\n---\nSteps.\n`);
  for (const pkg of ['api', 'web', 'cli']) {
    repo.write(`packages/${pkg}/AGENTS.md`, rulesText(1, 8));
    for (const skill of ['build', 'release']) repo.write(`packages/${pkg}/.agents/skills/${pkg}-${skill}/SKILL.md`, `---\nname: ${pkg}-${skill}\ndescription: How the ${pkg} package does ${skill}.\n---\nSteps.\n`);
    repo.write(`packages/${pkg}/src/index.ts`, 'export {};\n');
  }
  repo.commitAll('monorepo with nested skills');
  return {
    name: 'monorepo',
    repo,
    cwd: '',
    requests: ['Speed up the API build. Use $api-build.', 'Why does the web release fail on CI?'],
    focus: [['packages/api/src/index.ts'], ['packages/web/src/index.ts']],
  };
}

/** A rules file of `sections` short sections, as teams write them. */
function rulesText(depth: number, sections: number): string {
  const body = Array.from(
    { length: sections },
    (_, i) => `## Rule ${depth}.${i + 1}\n\nKeep modules small and named after what they do; test behaviour, not implementation; document every public function with an example (${depth}/${i}).\n`,
  );
  return `# Rules at depth ${depth}\n\n${body.join('\n')}`;
}

function render(format: Format, prompt: PromptInput): string {
  return promptText(formatRequest(format, prompt));
}

function bytes(text: string): number {
  return new TextEncoder().encode(text).length;
}

function tokens(text: string): number {
  return countTokens(text);
}

function percent(share: number): string {
  return `${(share * 100).toFixed(1)}%`;
}

/**
 * A pull request's first turn (issue 56 goal 3), through `wrangler dev --local` as deployed: a
 * signed `pull_request` delivery for a pull request whose changed files are in 20 directories,
 * from the accepted delivery (the 202) to turn 0 ready, against the tests' local GitHub API server
 * at 100 ms of latency on its own thread, the Worker acting as a GitHub App. Cold: a fresh
 * `wrangler dev` (no installation token stored, nothing cached, the Task object's code not loaded
 * yet); warm: a second pull request on the same base in the same Worker (the token and the base's
 * read-ahead stored, a new Task object); new base: a third pull request in the same Worker, on a
 * commit of main nothing was read at (the token stored, nothing of the base cached: what the first
 * pull request after each push to main meets). Printed with its request timeline: each GitHub request
 * with when it was sent and answered, relative to the accepted delivery, and the chain of requests
 * one after another (a request that started after another ended), which is what the latency
 * multiplies; Groundwork's own time before its first request and after GitHub's last answer (the
 * medians of all runs, which GitHub's answers do not move); and the CPU wrangler and workerd spent
 * in the window. Goal: cold within 3 round
 * trips of latency + 60 ms, warm (either) within 2 + 60 ms.
 *
 * "Ready" is when the Task object, turn 0 stored, reports it: the check run it then creates on
 * the pull request's head, as the GitHub server sees it arrive (the report is built after the turn
 * is stored, so the figure errs high by that). Nothing asks the Worker anything in the window: a
 * bench polling the task every few milliseconds kept local workerd's one thread busy with its
 * questions. The server's clock (its thread's `performance.now()`) is aligned with the bench's by
 * one request sent just before the delivery, so a request's times are known to a millisecond or so.
 *
 * `FIRST_TURN_PROFILE=<dir>`: this build's Worker is built unminified and V8's profiler (over
 * wrangler's inspector, 100 µs) runs around each of its turns; each profile is written to the
 * directory (`cold-1.cpuprofile`...) and summarised in a line. A diagnostic: the profiler and the
 * unminified build slow the turns, so read its lines for where the CPU went, not for the goal.
 *
 * `FIRST_TURN_TIMELINE=<file>`: each turn is appended to the file as a line of JSON (build, case,
 * round; the accepted delivery, turn 0 ready and each GitHub request sent and answered, in ms on
 * the system's monotonic clock), so a trace taken with `perf record -k CLOCK_MONOTONIC` beside the
 * bench can be cut into the windows between them (bench/perf-windows). With
 * `FIRST_TURN_UNMINIFIED=1` this build's Worker is built unminified without the profiler, so
 * workerd's perf map (`MINIFLARE_WORKERD_V8_FLAGS=--perf-basic-prof`) names its functions.
 *
 * `FIRST_TURN_RUNS` fresh Workers (default 3), each a cold and then a warm first turn; each line is
 * the median run, with every run's time. With GROUNDWORK_BENCH_BEFORE=<checkout>/dist/groundwork.cjs
 * (as bench/agent-waits takes it), that checkout's Worker (built, with its node_modules) takes a
 * turn beside this one's in every round, the two going first in alternate rounds, against the same
 * GitHub server, and its lines are marked
 * `[before]`: before and after at the same moment's load; three lines more give this build's turns
 * against that one's round by round (the median of the rounds' differences, how many rounds each
 * was sooner), which the machine's load moves less than the difference of two medians. On a loaded
 * machine the wall time is mostly waiting for a CPU; the CPU and the chain of requests are what the
 * build itself decides.
 */
import { generateKeyPairSync } from 'node:crypto';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as z from 'zod';
import { createGitRepo } from '../test/support/git-fixtures.ts';
import { startGitHubServerThread } from '../test/support/github-server-thread.ts';
import { FOCUS_TOKEN, mapStore, PACKAGES, PULL, run as assembleInBench } from './focus-reads.ts';
import { firstTurnPulls, OWNER, REPO, signedDelivery } from './first-turn-pulls.ts';
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { summariseCpuProfile } from './cpu-profile-summary.ts';
import { floorLines, pairedLines, turnLine, type FirstTurn, type TurnRuns } from './first-turn-report.ts';
import { inspectWrangler, type Inspector } from './inspector.ts';
import { startWranglerDev } from './wrangler-dev.ts';
import { API_TOKEN, post, SCOPE, stats, untilReady, untilReported, waitingClient, type ServerRequest } from './first-turn-waits.ts';

const LATENCY_MS = 100;
const SECRET = 'bench-first-turn-secret';
/** Fresh Workers, each a cold and a warm first turn; the median run is printed. */
const RUNS = Number(process.env['FIRST_TURN_RUNS'] ?? 3);
/** GROUNDWORK_BENCH_BEFORE=<checkout>/dist/groundwork.cjs (bench/agent-waits): that checkout's Worker runs too. */
const BEFORE = process.env['GROUNDWORK_BENCH_BEFORE'];
const BEFORE_ROOT = BEFORE ? resolve(dirname(BEFORE), '..') : undefined;
const PROFILE_DIR = process.env['FIRST_TURN_PROFILE'];
const PROFILE_SAMPLING_US = 100;
const TIMELINE = process.env['FIRST_TURN_TIMELINE'];
const UNMINIFIED = process.env['FIRST_TURN_UNMINIFIED'] === '1';

interface Build {
  /** Appended to each of its lines. */
  label: string;
  /** Another checkout to run (bench/wrangler-dev); this one when absent. */
  root?: string;
  /** Another Worker's configuration (the floor's); Groundwork's when absent. */
  config?: string;
}

/** The same turn with none of Groundwork's code (its header): local workerd's part of the own time. */
const FLOOR: Build = { label: ' [floor]', config: fileURLToPath(new URL('./workers/first-turn-floor/wrangler.toml', import.meta.url)) };

const Accepted = z.object({ taskId: z.string(), duplicate: z.boolean() });


export async function benchFirstTurn(): Promise<string[]> {
  const repo = createGitRepo();
  try {
    const { base, head, second, newBase, third, pulls } = firstTurnPulls(repo);
    const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const github = await startGitHubServerThread({
      repoDir: repo.dir,
      owner: OWNER,
      repo: REPO,
      appId: '1',
      installationId: 1,
      appPublicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
      personalToken: FOCUS_TOKEN,
      pulls,
    });
    try {
      await post(`${github.origin}/__control/${SCOPE}`, JSON.stringify({ latencyMs: LATENCY_MS }));
      // The server answers from git, spawning it per object, and validates each GraphQL query it has
      // not seen: untimed reads of the same base and both pull requests' files first (the base's
      // through bench/focus-reads, in this process) leave it answering from memory, as GitHub would.
      await warmServer(github.origin, [{ base, head }, { base: newBase, head: third }], pulls.map((pull) => pull.number));
      const vars = {
        GITHUB_WEBHOOK_SECRET: SECRET,
        GITHUB_APP_ID: '1',
        GITHUB_APP_PRIVATE_KEY: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
        GITHUB_API_URL: `${github.origin}/s/${SCOPE}`,
        API_TOKENS: `bench=${API_TOKEN}`,
        TENANT_GRANTS: JSON.stringify({ bench: ['github:1'] }),
      };
      const before: Build | undefined = BEFORE_ROOT ? { label: ' [before]', root: BEFORE_ROOT } : undefined;
      const ours: Build = { label: '' };
      const builds: Build[] = [ours, ...(before ? [before] : []), FLOOR];
      const runs = new Map<Build, TurnRuns>(builds.map((build) => [build, { cold: [], warm: [], newBase: [] }]));
      const profiles: string[] = [];
      // One fresh Worker per build per round, the builds taking turns, so both meet the same load,
      // and going first in alternate rounds: with the same build in both, the Worker that always
      // went first read its warm turns about 4 ms sooner (docs/benchmarks, 2026-12-07 09:20).
      for (let round = 0; round < RUNS; round++) {
        for (const build of round % 2 === 0 ? builds : [...builds].reverse()) {
          const profiling = PROFILE_DIR !== undefined && build === ours;
          const wrangler = await startWranglerDev(vars, build.root ? { root: build.root } : build.config ? { config: build.config } : profiling || UNMINIFIED ? { build: { minify: false } } : {});
          const inspector = profiling ? await inspectWrangler(wrangler.inspectorPort) : undefined;
          try {
            await inspector?.send('Profiler.enable');
            await inspector?.send('Profiler.setSamplingInterval', { interval: PROFILE_SAMPLING_US });
            const turn = async (kind: string, pull: { number: number; base: string; head: string }) => {
              const made = await (inspector && PROFILE_DIR ? profiled(inspector, `${PROFILE_DIR}/${kind}-${round + 1}.cpuprofile`, profiles, () => firstTurn(wrangler, github.origin, pull, build)) : firstTurn(wrangler, github.origin, pull, build));
              if (TIMELINE) appendFileSync(TIMELINE, `${JSON.stringify(timelineLine(made, build === ours ? 'ours' : build.label.trim().replace(/^\[|\]$/g, ''), kind, round + 1))}\n`);
              return made;
            };
            runs.get(build)?.cold.push(await turn('cold', { number: PULL, base, head }));
            runs.get(build)?.warm.push(await turn('warm', { number: 13, base, head: second }));
            runs.get(build)?.newBase.push(await turn('new-base', { number: 14, base: newBase, head: third }));
          } finally {
            inspector?.close();
            await wrangler.stop();
          }
        }
      }
      return [
        `pull request first turn (changed files in ${PACKAGES} directories, GitHub API server at ${LATENCY_MS} ms latency, the Worker as a GitHub App through wrangler dev; ms from the accepted delivery; ${RUNS} rounds${BEFORE_ROOT ? `, each with a Worker of ${BEFORE_ROOT}, marked [before], the two going first in turn` : ''})`,
        ...builds.flatMap((build) => {
          const { cold, warm, newBase: moved } = runs.get(build) ?? { cold: [], warm: [], newBase: [] };
          return [
            turnLine('cold (new Worker: no token, no cache, no code loaded)', cold, 3, LATENCY_MS, build.label),
            turnLine('warm (same Worker and base, next pull request)', warm, 2, LATENCY_MS, build.label),
            turnLine('warm, new base (same Worker, token stored, nothing of the base cached)', moved, 2, LATENCY_MS, build.label),
          ];
        }),
        ...paired(runs, ours, before),
        ...floorLines(runs.get(ours), runs.get(FLOOR)),
        ...profiles,
      ];
    } finally {
      await github.close();
    }
  } finally {
    repo.remove();
  }
}

async function warmServer(origin: string, pins: ReadonlyArray<{ base: string; head: string }>, numbers: number[]): Promise<void> {
  // Its first answers are the slowest (git, then graphql-js and the JIT: a GraphQL read-ahead took
  // the server 30-50 ms of its own for its first few answers, 5-8 ms from about the fifth), and a
  // read that runs into a provider's deadline is tried again: five whole reads, or eight tries.
  for (const pin of pins) for (let tries = 0, done = 0; done < 5 && tries < 8; tries++) if (await assembleInBench(origin, 'graphql', pin, mapStore()).then(() => true, () => false)) done++;
  for (const number of numbers) {
    const response = await fetch(`${origin}/repos/${OWNER}/${REPO}/pulls/${number}/files?per_page=100&page=1`, { headers: { authorization: `token ${FOCUS_TOKEN}` } });
    await response.body?.cancel();
  }
}

async function firstTurn(wrangler: Awaited<ReturnType<typeof startWranglerDev>>, githubOrigin: string, pull: { number: number; base: string; head: string }, build: Build): Promise<FirstTurn> {
  const delivery = await signedDelivery(pull, SECRET);
  // Aligns the server's clock: this request's start there is `marker` here.
  const seen = (await stats(githubOrigin)).requests.length;
  const marker = performance.now();
  await fetch(`${githubOrigin}/s/${SCOPE}/bench-clock`).then((response) => response.body?.cancel());
  const cpuBefore = wrangler.cpuMs();
  const sent = performance.now();
  // Node's performance.now() and hrtime read the same monotonic clock: libuv's uv_hrtime, which on
  // Linux is clock_gettime(CLOCK_MONOTONIC) (libuv 1.51.0 in Node 22.23.3, src/unix/linux.c), the
  // clock `perf record -k CLOCK_MONOTONIC` stamps samples with (perf-record(1), perf 6.1 here).
  const monotonic = Number(process.hrtime.bigint()) / 1e6 - performance.now();
  const response = await fetch(`${wrangler.origin}/webhooks/github`, { method: 'POST', headers: delivery.headers, body: delivery.body });
  const accepted = performance.now();
  const answer = Accepted.parse(await response.json());
  if (response.status !== 202 || answer.duplicate) throw new Error(`first turn bench: the delivery was answered ${response.status} ${JSON.stringify(answer)}`);
  // The floor's Worker has no task API to wait on.
  const waiter = build.config ? undefined : waitingClient(wrangler.origin, answer.taskId, githubOrigin, seen);
  // Awaited below; a failure of the check run's wait first must not leave it unhandled.
  waiter?.catch(() => undefined);
  const reported = await untilReported(githubOrigin, seen);
  const heard = await waiter;
  const cpuMs = wrangler.cpuMs() - cpuBefore;
  await untilReady(wrangler.origin, answer.taskId);
  if (process.env.FIRST_TURN_DEBUG) console.error(await (await fetch(`${wrangler.origin}/tasks/${answer.taskId}`, { headers: { authorization: `Bearer ${API_TOKEN}` } })).text());

  const requests = (await stats(githubOrigin)).requests.slice(seen);
  const clock = requests.find((request) => request.path === '/bench-clock');
  if (!clock) throw new Error('first turn bench: the clock request is not in the server log');
  const offset = marker - clock.startedAt;
  const ready = reported.startedAt + offset;
  const inWindow = requests.filter((request) => request !== clock && request.endedAt > 0 && request.startedAt + offset < ready);
  const timeline = inWindow.map((request) => ({ what: describe(request), sent: request.startedAt + offset - accepted, answered: request.endedAt + offset - accepted }));
  return { ms: ready - accepted, requests: timeline, chain: longestChain(inWindow), own: uncovered(timeline, ready - accepted), cpuMs, answerMs: accepted - sent, ...(heard === undefined ? {} : { heardMs: heard - accepted }), acceptedMonotonicMs: accepted + monotonic };
}

/** `turn` under V8's profiler: the profile written to `file`, its summary added to `lines`. */
async function profiled(inspector: Inspector, file: string, lines: string[], turn: () => Promise<FirstTurn>): Promise<FirstTurn> {
  await inspector.send('Profiler.start');
  let result: FirstTurn | undefined;
  try {
    result = await turn();
    return result;
  } finally {
    const { profile } = z.object({ profile: z.unknown() }).parse(await inspector.send('Profiler.stop'));
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify(profile));
    lines.push(`profile ${file} (unminified, ${PROFILE_SAMPLING_US} µs; turn ${result ? `${result.ms.toFixed(0)} ms` : 'failed'}): ${summariseCpuProfile(profile, { maxSampleUs: 2 * PROFILE_SAMPLING_US })}`);
  }
}

/** With a build before, this build's turns against its round by round (first-turn-report). */
function paired(runs: ReadonlyMap<Build, TurnRuns>, ours: Build, before: Build | undefined): string[] {
  const [mine, theirs] = [runs.get(ours), before && runs.get(before)];
  return mine && theirs ? pairedLines(mine, theirs) : [];
}

/** A turn as FIRST_TURN_TIMELINE writes it: every time in ms on the monotonic clock. */
function timelineLine(turn: FirstTurn, build: string, kind: string, round: number): Record<string, unknown> {
  const at = (ms: number) => Number((turn.acceptedMonotonicMs + ms).toFixed(3));
  return { build, kind, round, accepted: at(0), ready: at(turn.ms), requests: turn.requests.map((request) => ({ what: request.what, sent: at(request.sent), answered: at(request.answered) })) };
}

/** The longest chain of requests in which each was sent after the one before it was answered. */
function longestChain(requests: ServerRequest[]): number {
  const sorted = [...requests].sort((a, b) => a.endedAt - b.endedAt);
  const depth = new Map<ServerRequest, number>();
  for (const request of sorted) depth.set(request, 1 + Math.max(0, ...sorted.filter((before) => before.endedAt <= request.startedAt).map((before) => depth.get(before) ?? 0)));
  return Math.max(0, ...depth.values());
}

function describe(request: ServerRequest): string {
  const path = request.path.replace(/\?.*$/, '');
  if (path.includes('/access_tokens')) return 'installation token';
  if (path.endsWith('/files')) return 'changed files';
  if (path.startsWith('/graphql')) return 'GraphQL read-ahead';
  if (path.includes('/check-runs')) return `check run ${request.method}`;
  return `${request.method} ${path}`;
}

/** How much of [0, end] no request was in flight: the time that was Groundwork's own. */
function uncovered(requests: ReadonlyArray<{ sent: number; answered: number }>, end: number): number {
  let covered = 0;
  let reached = 0;
  for (const { sent, answered } of [...requests].sort((a, b) => a.sent - b.sent)) {
    const from = Math.max(sent, reached, 0);
    const to = Math.min(answered, end);
    if (to > from) covered += to - from;
    reached = Math.max(reached, answered);
  }
  return end - covered;
}

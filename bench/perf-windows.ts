/**
 * Where workerd's CPU went in each window of bench/first-turn's turns: a diagnostic for goal 3 of
 * issue 56, not a bench section. It cuts a `perf` trace taken beside the bench by the turns'
 * request timeline (FIRST_TURN_TIMELINE) and prints, per case, workerd's busiest thread's samples
 * in each window by kind (JavaScript, compiling, garbage collection, SQLite, JSON, other native)
 * and by JavaScript function.
 *
 *   perf record -q -a -g -k CLOCK_MONOTONIC -F 4000 -e cpu-clock -o turns.data & PERF=$!
 *   MINIFLARE_WORKERD_V8_FLAGS="--perf-basic-prof --interpreted-frames-native-stack" \
 *     FIRST_TURN_UNMINIFIED=1 FIRST_TURN_TIMELINE=$PWD/turns.jsonl FIRST_TURN_RUNS=5 npm run bench -- first-turn
 *   kill -INT $PERF; wait $PERF; perf script -i turns.data -F comm,tid,time,ip,sym > turns.txt
 *   node_modules/.bin/node bench/perf-windows.ts turns.txt turns.jsonl [ours] [functions]
 *
 * (perf by its pid: a script's background jobs ignore SIGINT, so `kill -INT %1` reaches perf only
 * from an interactive shell.)
 *
 * The windows: `before` (the accepted delivery to the first request), `between` (each request's
 * answer to the next request), `after` (the last answer to turn 0 ready), and `in flight` (while a
 * request was out). perf's own cost and the perf map slow the turns (a cold turn's own time about
 * 1.4x): read the shares, not the milliseconds, against the goal.
 */
import { createReadStream, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

interface Timeline {
  build: string;
  kind: string;
  round: number;
  accepted: number;
  ready: number;
  requests: Array<{ what: string; sent: number; answered: number }>;
}

interface Sample {
  at: number;
  thread: string;
  frames: string[];
}

const KINDS: Array<[string, RegExp]> = [
  ['garbage collection', /PerformGarbageCollection|Scavenger|CollectGarbage|MarkCompact|Sweeper/],
  ['compiling', /Compiler::Compile|CompileLazy|Parser::|Scanner::|BytecodeGenerator|Maglev|Compile/],
  ['SQLite', /sqlite/i],
  ['JSON', /JsonParse|JsonParser|JsonStringif/],
];

/** Samples a ms: `perf record -F 4000`, or PERF_FREQUENCY for another rate. */
const SAMPLES_PER_MS = Number(process.env['PERF_FREQUENCY'] ?? 4000) / 1000;

const [tracePath, timelinePath, build = 'ours', detail] = process.argv.slice(2);
if (!tracePath || !timelinePath) {
  console.error('usage: node_modules/.bin/node bench/perf-windows.ts <perf script output> <FIRST_TURN_TIMELINE file> [build] [functions]');
  process.exit(2);
}
const turns = readFileSync(timelinePath, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as Timeline).filter((turn) => turn.build === build);
// Only the samples inside some turn of the build: a trace of a few rounds is hundreds of MB.
const spans = turns.map((turn): [number, number] => [turn.accepted, turn.ready]);
const samples = await readSamples(tracePath, (at) => spans.some(([from, to]) => at >= from && at < to));
for (const kind of [...new Set(turns.map((turn) => turn.kind))]) {
  const mine = turns.filter((turn) => turn.kind === kind);
  console.log(`${build} ${kind}, ${mine.length} turns (ms of samples per turn on workerd's busiest thread in each window; its wall time after the slash)`);
  for (const [name, windows] of Object.entries(windowsOf(mine))) console.log(`  ${name}: ${describe(windows, mine.length)}`);
}

async function readSamples(path: string, keep: (at: number) => boolean): Promise<Sample[]> {
  const out: Sample[] = [];
  let current: Sample | undefined;
  for await (const line of createInterface({ input: createReadStream(path), crlfDelay: Infinity })) {
    const header = /^(\S+)\s+(\d+)\s+([\d.]+):/.exec(line);
    if (header) {
      const at = Number(header[3]) * 1000;
      current = header[1] === 'workerd' && keep(at) ? { at, thread: header[2] ?? '', frames: [] } : undefined;
      if (current) out.push(current);
      continue;
    }
    const frame = current && /^\s+[0-9a-f]+\s+(.*)$/.exec(line);
    if (frame) current?.frames.push(frame[1] ?? '');
  }
  return out;
}

/** Each window kind's [start, end) spans over the turns, in ms on the monotonic clock. */
function windowsOf(list: Timeline[]): Record<string, Array<[number, number]>> {
  const out: Record<string, Array<[number, number]>> = { before: [], between: [], after: [], 'in flight': [] };
  for (const turn of list) {
    const requests = [...turn.requests].sort((a, b) => a.sent - b.sent);
    const first = requests[0];
    if (!first) continue;
    out['before']?.push([turn.accepted, first.sent]);
    let reached = first.answered;
    out['in flight']?.push([first.sent, first.answered]);
    for (const request of requests.slice(1)) {
      if (request.sent > reached) out['between']?.push([reached, request.sent]);
      out['in flight']?.push([Math.max(request.sent, reached), Math.max(request.answered, reached)]);
      reached = Math.max(reached, request.answered);
    }
    out['after']?.push([reached, turn.ready]);
  }
  return out;
}

function describe(windows: Array<[number, number]>, turnCount: number): string {
  const inside = samples.filter((sample) => windows.some(([from, to]) => sample.at >= from && sample.at < to));
  const byThread = new Map<string, number>();
  for (const sample of inside) byThread.set(sample.thread, (byThread.get(sample.thread) ?? 0) + 1);
  // One workerd per round, each window inside one round: its busiest thread is the Worker's.
  const threads = new Set([...byThread].sort((a, b) => b[1] - a[1]).slice(0, turnCount).map(([thread]) => thread));
  const picked = inside.filter((sample) => threads.has(sample.thread));
  const per = (count: number) => (count / SAMPLES_PER_MS / turnCount).toFixed(1);
  const kinds = new Map<string, number>();
  const functions = new Map<string, number>();
  for (const sample of picked) {
    const near = sample.frames.slice(0, 25).join(' ');
    const js = sample.frames.filter((frame) => frame.startsWith('JS:'));
    const kind = KINDS.find(([, pattern]) => pattern.test(near))?.[0] ?? (js.length > 0 ? 'JavaScript' : 'other native');
    kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
    const innermost = js[0]?.replace(/^JS:[~^*+]?/, '').replace(/ \S*\//, ' ');
    if (innermost) functions.set(innermost, (functions.get(innermost) ?? 0) + 1);
  }
  const wall = windows.reduce((sum, [from, to]) => sum + (to - from), 0) / turnCount;
  const top = (map: Map<string, number>, count: number) => [...map].sort((a, b) => b[1] - a[1]).slice(0, count).map(([name, n]) => `${name} ${per(n)}`).join(', ');
  return `${per(picked.length)} / ${wall.toFixed(1)} ms: ${top(kinds, KINDS.length + 2)}${detail === 'functions' ? `\n    functions (innermost): ${top(functions, 12)}` : ''}`;
}

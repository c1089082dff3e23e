/**
 * A small item appended to a task's transcript with N turns stored (an agent's tool result, a
 * follow-up: an MCP or REST call the agent waits on), each turn's record the size of
 * bench/first-turn's pull request's turn 0 (a 35 KB context item inside a 75 KB record, the item
 * in the transcript too). The writer's cap check counts what stored turns owe the transcript; it
 * read that from every record on every append (SQLite parsing each record's JSON), and now reads
 * it only when the records' bytes beside the transcript could reach the cap
 * (durable-objects/transcript-writer). SQLite as Node 22 ships it (`node:sqlite`) behind the
 * writer's `SqlStorage` calls; with GROUNDWORK_BENCH_BEFORE=<checkout>/dist/groundwork.cjs that
 * checkout's writer appends beside this one's, interleaved, each on its own database.
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { TranscriptItem } from '../src/context/transcript.ts';

const TURNS = [1, 10, 40];
const ROUNDS = 41;
const BEFORE = process.env['GROUNDWORK_BENCH_BEFORE'];

/** What the bench asks of the Task object's transcript writer (loaded by path: it is typed for workerd). */
interface Writer {
  append(items: readonly TranscriptItem[], turn: number): { status: string };
}
type WriterClass = new (sql: unknown) => Writer;

async function writerAt(root: string): Promise<WriterClass> {
  const module = (await import(pathToFileURL(resolve(root, 'durable-objects/transcript-writer.ts')).href)) as { TranscriptWriter: WriterClass };
  return module.TranscriptWriter;
}

export async function benchTranscriptAppend(): Promise<string[]> {
  // Loaded here, only this section needs it; its warning that it is experimental is not this bench's news.
  const emitWarning = process.emitWarning;
  process.emitWarning = ((...args: Parameters<typeof emitWarning>) => (String(args[0]).includes('SQLite') ? undefined : emitWarning.apply(process, args))) as typeof emitWarning;
  const { DatabaseSync } = await import('node:sqlite').finally(() => (process.emitWarning = emitWarning));
  const ours = await writerAt(fileURLToPath(new URL('..', import.meta.url)));
  const before = BEFORE ? await writerAt(resolve(dirname(BEFORE), '..')) : undefined;
  const lines: string[] = [];
  for (const turns of TURNS) {
    const builds = [{ label: '', Writer: ours }, ...(before ? [{ label: ' [before]', Writer: before }] : [])].map((build) => {
      const db = new DatabaseSync(':memory:');
      db.exec(`CREATE TABLE transcript (seq INTEGER PRIMARY KEY AUTOINCREMENT, item_id TEXT NOT NULL UNIQUE, turn INTEGER NOT NULL, item TEXT NOT NULL);
               CREATE TABLE turns (turn INTEGER PRIMARY KEY, record TEXT NOT NULL, created_at INTEGER NOT NULL);`);
      const sql = sqlStorage(db);
      const writer = new build.Writer(sql);
      for (let turn = 0; turn < turns; turn++) {
        const item = contextItem(turn);
        db.prepare('INSERT INTO turns (turn, record, created_at) VALUES (?, ?, ?)').run(turn, JSON.stringify(turnRecord(turn, item)), turn);
        if (writer.append([item], turn).status !== 'ok') throw new Error('the stored turns did not fit');
      }
      return { ...build, writer, times: [] as number[] };
    });
    for (let round = 0; round < ROUNDS; round++) {
      // Alternate which goes first, so neither gets the warmer caches every time.
      for (const build of round % 2 === 0 ? builds : [...builds].reverse()) {
        const item: TranscriptItem = { id: `tool-result-${round}`, type: 'message', role: 'user', content: `A tool's answer, round ${round}.` };
        const started = performance.now();
        const outcome = build.writer.append([item], turns - 1);
        build.times.push(performance.now() - started);
        if (outcome.status !== 'ok') throw new Error(`round ${round}: ${outcome.status}`);
      }
    }
    const [mine, theirs] = builds.map((build) => median(build.times));
    lines.push(
      `a small item appended with ${turns} turn${turns === 1 ? '' : 's'} stored (each a 75 KB record with its 35 KB item): ${mine?.toFixed(3)} ms (median of ${ROUNDS})` +
        (theirs === undefined || mine === undefined ? '' : `; [before] ${theirs.toFixed(3)} ms: ${(mine / theirs).toFixed(2)}x`),
    );
  }
  return lines;
}

/** The `SqlStorage` calls the writer makes (`exec`, then `toArray` or `one`), over Node's SQLite. */
function sqlStorage(db: InstanceType<typeof import('node:sqlite').DatabaseSync>): unknown {
  const exec = (query: string, ...bindings: Array<string | number | null>) => {
    const rows = db.prepare(query).all(...bindings);
    return { toArray: () => rows, one: () => rows[0], [Symbol.iterator]: () => rows[Symbol.iterator]() };
  };
  return { exec };
}

function contextItem(turn: number): TranscriptItem {
  const line = `- packages/p${String(turn % 20).padStart(2, '0')}/AGENTS.md: keep the public API in src/index.ts and run the package's tests.\n`;
  return { id: `context-${turn}`, type: 'context', role: 'user', content: line.repeat(Math.ceil(35_000 / line.length)).slice(0, 35_000) };
}

/** A record the shape and size of a pull request's turn 0: the item, and some 40 KB of providers' outcomes and entries. */
function turnRecord(turn: number, item: TranscriptItem): unknown {
  const verdicts = Array.from({ length: 21 }, (_, i) => ({
    path: `packages/p${String(i).padStart(2, '0')}/AGENTS.md`,
    format: 'directory-file',
    verdict: 'applied',
    reason: 'nearest AGENTS.md of a changed file',
    clients: ['codex', 'claude-code', 'gemini-cli', 'copilot', 'cursor'].map((client) => ({ client, cell: 'loaded', why: `at start, on the chain from the root to packages/p${i}` })),
  }));
  const entries = Array.from({ length: 60 }, (_, i) => ({ provider: 'rules', category: 'rules', title: `rule ${i}`, source: { uri: `github:acme/mono/packages/p${i}/AGENTS.md`, commit: 'a'.repeat(40) }, chars: 500, tokens: 120 }));
  return { turn, digest: `sha256:${'0'.repeat(64)}`, item, providers: [{ name: 'rules', outcome: 'included', verdicts }], entries, system: ['You review pull requests.'.repeat(80)], createdAt: turn };
}

function median(values: readonly number[]): number | undefined {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

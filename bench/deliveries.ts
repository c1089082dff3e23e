/**
 * Webhook intake (issues 6 and 28): signed `pull_request` deliveries per second accepted through
 * `wrangler dev --local`, with 20% redeliveries and bounded concurrency, counting 202s, for
 * Groundwork and for the floor (`bench/workers/webhook-floor`: verify, parse, insert one row into
 * a SQLite Durable Object), each in a fresh `wrangler dev`, A B C A B C, medians. Groundwork runs
 * twice: as deployed, where what the accepted deliveries start (their intake shards creating Task
 * objects, the assemblies) competes with the burst for local workerd's one thread, and with every
 * alarm armed an hour later than asked (bench/workers/groundwork-held), which measures the accept
 * path alone: in production that work runs in those objects, not beside the Worker that accepts
 * deliveries. The held shards re-arm their alarm on every delivery (it is never due), one storage
 * write more than a deployed shard makes, so the held figure errs low. GitHub is
 * a throwaway local server answering 404, so nothing ever leaves the machine. Goal (issue 28):
 * Groundwork's accept path at least 0.8x the floor.
 */
import { createRequire } from 'node:module';
import { generateKeyPairSync } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import * as z from 'zod';
import { signGitHubPayload } from '../src/triggers/github/verify.ts';
import { startWranglerDev } from './wrangler-dev.ts';

const DELIVERIES = 300;
const DUPLICATE_SHARE = 0.2;
const CONCURRENCY = 20;
export const SECRET = 'bench-webhook-secret';

const Accepted = z.object({ taskId: z.string(), duplicate: z.boolean() });
const PullRequestExample = z.looseObject({
  action: z.literal('opened'),
  pull_request: z.looseObject({ head: z.looseObject({}) }),
});

/** Runs per Worker; each run is a fresh `wrangler dev` and a fresh set of deliveries. */
const RUNS = Number(process.env.RUNS ?? 2);
const FLOOR_CONFIG = fileURLToPath(new URL('./workers/webhook-floor/wrangler.toml', import.meta.url));
/** Groundwork with every alarm armed an hour later than asked (see its header). */
export const HELD_ENTRY = 'bench/workers/groundwork-held/index.ts';

type Variant = 'groundwork' | 'held' | 'floor';

export async function benchDeliveries(): Promise<string[]> {
  const github = await notFoundGitHub();
  try {
    const groundworkVars = benchGroundworkVars(github.url);
    const runs: Record<Variant, Burst[]> = { groundwork: [], held: [], floor: [] };
    for (let run = 0; run < RUNS; run++) {
      runs.groundwork.push(await measureWorker(() => startWranglerDev(groundworkVars)));
      runs.held.push(await measureHeld(groundworkVars));
      runs.floor.push(await measureWorker(() => startWranglerDev({ GITHUB_WEBHOOK_SECRET: SECRET }, { config: FLOOR_CONFIG })));
    }
    const rate = (variant: Variant) => median(runs[variant].map((burst) => burst.perSecond));
    const cpu = (variant: Variant) => median(runs[variant].map((burst) => burst.cpuMsPerDelivery));
    const each = (variant: Variant) => runs[variant].map((burst) => Math.round(burst.perSecond)).join(', ');
    const shape = `${DELIVERIES} deliveries, ${DUPLICATE_SHARE * 100}% redelivered, ${CONCURRENCY} concurrent, through wrangler dev`;
    return [
      `webhook accept path (verify, dedupe, store in an intake shard, answer; every alarm armed an hour later, so no Task object is created after the answer): Groundwork ${Math.round(rate('held'))} deliveries/s (${each('held')}), ` +
        `trivial verify-parse-insert Worker ${Math.round(rate('floor'))}/s (${each('floor')}), Groundwork / trivial = ${(rate('held') / rate('floor')).toFixed(2)} (goal >= 0.8; ${shape})`,
      `webhook intake with assemblies running beside it (local workerd runs the Worker and every object on one thread): Groundwork ${Math.round(rate('groundwork'))} deliveries/s (${each('groundwork')}), ` +
        `Groundwork / trivial = ${(rate('groundwork') / rate('floor')).toFixed(2)}`,
      `webhook intake CPU (wrangler and workerd, during the burst): accept path ${cpu('held').toFixed(1)} ms per delivery, with assemblies ${cpu('groundwork').toFixed(1)} ms, trivial Worker ${cpu('floor').toFixed(1)} ms; ` +
        `trivial / accept path = ${(cpu('floor') / cpu('held')).toFixed(2)}, trivial / with assemblies = ${(cpu('floor') / cpu('groundwork')).toFixed(2)}`,
    ];
  } finally {
    await github.close();
  }
}

/** The accept path alone: the held Worker, whose alarms are armed an hour ahead and never run. */
async function measureHeld(vars: Record<string, string>): Promise<Burst> {
  return measureWorker(() => startWranglerDev(vars, { build: { entry: HELD_ENTRY } }));
}

/** A throwaway GitHub that answers every request 404, so no assembly ever leaves the machine. */
export async function notFoundGitHub(): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"Not Found"}'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** Groundwork's variables for a burst: the bench's webhook secret and an App whose GitHub is `githubUrl`. */
export function benchGroundworkVars(githubUrl: string): Record<string, string> {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    GITHUB_WEBHOOK_SECRET: SECRET,
    GITHUB_APP_ID: '1',
    GITHUB_APP_PRIVATE_KEY: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    GITHUB_API_URL: githubUrl,
  };
}

interface Burst {
  perSecond: number;
  /** CPU the Worker's processes spent while the burst lasted, per delivery sent. */
  cpuMsPerDelivery: number;
}

async function measureWorker(start: () => ReturnType<typeof startWranglerDev>): Promise<Burst> {
  const wrangler = await start();
  try {
    const before = wrangler.cpuMs();
    const perSecond = await measureIntake(wrangler.origin);
    return { perSecond, cpuMsPerDelivery: (wrangler.cpuMs() - before) / DELIVERIES };
  } finally {
    await wrangler.stop();
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? NaN) : ((sorted[middle - 1] ?? NaN) + (sorted[middle] ?? NaN)) / 2;
}

/** Accepted deliveries per second, after checking every one was answered as it should be. */
export async function measureIntake(origin: string): Promise<number> {
  const deliveries = await signedDeliveries();
  let next = 0;
  let accepted = 0;
  let duplicates = 0;
  const taskIds = new Set<string>();
  const problems: string[] = [];
  const started = performance.now();
  const sender = async () => {
    for (let i = next++; i < deliveries.length; i = next++) {
      const delivery = deliveries[i];
      if (!delivery) break;
      const response = await fetch(`${origin}/webhooks/github`, { method: 'POST', headers: delivery.headers, body: delivery.body });
      const json: unknown = await response.json();
      const parsed = Accepted.safeParse(json);
      if (response.status !== 202 || !parsed.success) {
        problems.push(`${response.status} ${JSON.stringify(json).slice(0, 200)}`);
        continue;
      }
      accepted++;
      taskIds.add(parsed.data.taskId);
      if (parsed.data.duplicate) duplicates++;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, sender));
  const seconds = (performance.now() - started) / 1000;

  const unique = new Set(deliveries.map((delivery) => delivery.id)).size;
  if (problems.length > 0 || taskIds.size !== unique || duplicates !== deliveries.length - unique) {
    throw new Error(`deliveries bench: ${problems.length} refused (${problems[0] ?? 'none'}), ${taskIds.size} tasks for ${unique} unique deliveries, ${duplicates} duplicates`);
  }
  return accepted / seconds;
}

export interface SignedDelivery {
  id: string;
  headers: Record<string, string>;
  body: string;
}

/** The captured `pull_request.opened` example, one head commit per unique delivery, shuffled with its redeliveries. */
async function signedDeliveries(): Promise<SignedDelivery[]> {
  const uniqueCount = Math.round(DELIVERIES * (1 - DUPLICATE_SHARE));
  const unique = await Promise.all(Array.from({ length: uniqueCount }, (_, i) => signedDelivery(i + 1)));
  const redelivered = Array.from({ length: DELIVERIES - uniqueCount }, (_, i) => unique[i % uniqueCount]).filter((delivery) => delivery !== undefined);
  return [...unique, ...redelivered].sort(() => Math.random() - 0.5);
}

/** One signed `pull_request.opened` delivery (the captured example, installation 1), its head commit numbered `head`. */
export async function signedDelivery(head: number): Promise<SignedDelivery> {
  // The examples package is a JSON file; require() reads it without import attributes.
  const examples: unknown = createRequire(import.meta.url)('@octokit/webhooks-examples');
  const sets = z.array(z.object({ name: z.string(), examples: z.array(z.unknown()) })).parse(examples);
  const candidates = sets.find((set) => set.name === 'pull_request')?.examples ?? [];
  const example = candidates.map((candidate) => PullRequestExample.safeParse(candidate)).find((parsed) => parsed.success)?.data;
  if (!example) throw new Error('no pull_request.opened example in @octokit/webhooks-examples');
  const body = JSON.stringify({
    ...example,
    installation: { id: 1 },
    pull_request: { ...example.pull_request, head: { ...example.pull_request.head, sha: head.toString(16).padStart(40, '0') } },
  });
  const id = crypto.randomUUID();
  const headers = { 'content-type': 'application/json', 'X-GitHub-Event': 'pull_request', 'X-GitHub-Delivery': id, 'X-Hub-Signature-256': await signGitHubPayload(SECRET, body) };
  return { id, headers, body };
}

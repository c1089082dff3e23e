/**
 * @module bench/first-requests
 * What a cold isolate costs until its first answer: its start-up, then its first request, each
 * sampled every 100 µs (bench/startup-profile), interleaved, medians. Groundwork's entry evaluates
 * almost nothing at start-up (scripts/worker-build), so each request pays for loading what it
 * uses (a first `POST /mcp` loads the protocol code and the tools' schemas); the references are the trivial Hono Worker (`GET /`) and the trivial intake Worker
 * (bench/workers/webhook-floor: verify, parse, one SQLite row). Groundwork runs as
 * bench/workers/groundwork-held, whose objects arm their alarms an hour ahead, so its first
 * delivery is the accept path (verify, dedupe, store in its intake shard, answer) and nothing the
 * answer starts runs beside it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildWorker } from '../scripts/worker-build.ts';
import { benchGroundworkVars, HELD_ENTRY, SECRET, signedDelivery } from './deliveries.ts';
import { fineStartupBusyMs, firstRequestBusyMs, type ProfiledRequest, type WorkerBundle } from './startup-profile.ts';
import { bundle, median, workerBundle } from './worker-startup.ts';

const RUNS = Number(process.env.STARTUP_RUNS ?? 7);
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const TRIVIAL_CONFIG = join(ROOT, 'bench/workers/hono-hello/wrangler.toml');
const FLOOR_CONFIG = join(ROOT, 'bench/workers/webhook-floor/wrangler.toml');
const TOKEN = 'bench-first-request-token';
/** A 2026-07-28 tools/list, as a modern client sends it. */
const MCP_HEADERS = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' };
const MCP_META = { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } };

interface Case {
  name: string;
  bundle: WorkerBundle;
  bindings: Record<string, string>;
  request(): Promise<ProfiledRequest>;
}

export async function benchFirstRequests(): Promise<string[]> {
  const work = mkdtempSync(join(tmpdir(), 'groundwork-bench-first-'));
  try {
    const groundwork = workerBundle((await buildWorker({ entry: HELD_ENTRY, outdir: join(work, 'groundwork') })).dir, join(ROOT, 'wrangler.toml'));
    const trivial = workerBundle(bundle(join(work, 'trivial'), ['--config', TRIVIAL_CONFIG]).dir, TRIVIAL_CONFIG);
    const floor = workerBundle(bundle(join(work, 'floor'), ['--config', FLOOR_CONFIG]).dir, FLOOR_CONFIG);
    // The App's GitHub is a closed port: the held alarms never call it.
    const vars = { ...benchGroundworkVars('http://127.0.0.1:9'), API_TOKENS: `bench=${TOKEN}` };
    let head = 0;
    const delivery = async () => {
      const signed = await signedDelivery(++head);
      return { url: 'https://example.com/webhooks/github', method: 'POST', headers: signed.headers, body: signed.body };
    };
    const cases: Case[] = [
      { name: 'health', bundle: groundwork, bindings: vars, request: async () => ({ url: 'https://example.com/health' }) },
      { name: 'list', bundle: groundwork, bindings: vars, request: async () => ({ url: 'https://example.com/tasks', headers: { authorization: `Bearer ${TOKEN}` } }) },
      { name: 'delivery', bundle: groundwork, bindings: vars, request: delivery },
      // The MCP route group's first use: the protocol code and the tool catalog's schemas load, tools/list builds every schema.
      { name: 'mcp', bundle: groundwork, bindings: vars, request: async () => ({ url: 'https://example.com/mcp', method: 'POST', headers: MCP_HEADERS, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: MCP_META }) }) },
      { name: 'trivial', bundle: trivial, bindings: {}, request: async () => ({ url: 'https://example.com/' }) },
      { name: 'floor', bundle: floor, bindings: { GITHUB_WEBHOOK_SECRET: SECRET }, request: delivery },
    ];
    const startups = new Map<WorkerBundle, number[]>();
    const firsts = new Map<string, number[]>();
    for (let run = 0; run < RUNS; run++) {
      for (const bundle of [groundwork, trivial, floor]) startups.set(bundle, [...(startups.get(bundle) ?? []), await fineStartupBusyMs(bundle)]);
      for (const { name, bundle, bindings, request } of cases) firsts.set(name, [...(firsts.get(name) ?? []), await firstRequestBusyMs(bundle, bindings, await request())]);
    }
    const start = (bundle: WorkerBundle) => median(startups.get(bundle) ?? []);
    const first = (name: string) => median(firsts.get(name) ?? []);
    const ms = (value: number) => `${value.toFixed(1)} ms`;
    const coldDelivery = start(groundwork) + first('delivery');
    const coldFloor = start(floor) + first('floor');
    return [
      `cold isolate, start-up then first request (CPU sampled every 100 us, a sample counting at most 1 ms, ${RUNS} interleaved runs, medians): Groundwork start-up ${ms(start(groundwork))}, then GET /health ${ms(first('health'))}, ` +
        `GET /tasks ${ms(first('list'))}, a signed pull_request delivery ${ms(first('delivery'))} (the held Worker: its intake shard stores it, no alarm runs), ` +
        `a 2026-07-28 tools/list on POST /mcp ${ms(first('mcp'))}; ` +
        `trivial Hono Worker ${ms(start(trivial))} then GET / ${ms(first('trivial'))}; trivial verify-parse-insert Worker ${ms(start(floor))} then its first delivery ${ms(first('floor'))}; ` +
        `a cold delivery, start-up included: Groundwork / trivial intake = ${(coldDelivery / coldFloor).toFixed(1)}`,
    ];
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

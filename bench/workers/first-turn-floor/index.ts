/**
 * A pull request's first turn with none of Groundwork's code, measured beside it by `npm run bench
 * -- first-turn` (issue 56 goal 3): what local workerd itself costs a turn with the same steps and
 * the same GitHub requests one after another. The delivery is verified, parsed and stored in an
 * intake shard, whose alarm creates a new Durable Object for the task (as Groundwork's intake
 * does); that object stores its row and arms its alarm, reads the installation token from KV (from
 * the isolate's memory once it has one), on a miss signs the App's JWT and mints one, lists the
 * pull request's changed files, reads the base's trees at their directories and their parents in
 * one GraphQL query unless KV holds that read for the base, stores the turn and creates the check
 * run. Its time with no request in flight is the floor under Groundwork's own: a new object's
 * creation, KV's first read in a fresh workerd, the requests' handling, the writes.
 */
import { DurableObject } from 'cloudflare:workers';
import { signatureMatches } from '../shared/github-signature.ts';

interface FloorEnv {
  GITHUB_WEBHOOK_SECRET: string;
  GITHUB_APP_ID: string;
  GITHUB_APP_PRIVATE_KEY: string;
  GITHUB_API_URL: string;
  TOKENS: KVNamespace;
  INTAKE: DurableObjectNamespace<Intake>;
  TASKS: DurableObjectNamespace<Task>;
}

interface Delivery {
  installation: { id: number };
  repository: { full_name: string };
  pull_request: { number: number; base: { sha: string }; head: { sha: string } };
}

const encoder = new TextEncoder();
/** The isolate's installation tokens and the App's signing key, as any client keeps them. */
const tokens = new Map<number, string>();
let signingKey: Promise<CryptoKey> | undefined;

export class Intake extends DurableObject<FloorEnv> {
  constructor(ctx: DurableObjectState, env: FloorEnv) {
    super(ctx, env);
    ctx.storage.sql.exec('CREATE TABLE IF NOT EXISTS delivery (task TEXT PRIMARY KEY, body TEXT, due INTEGER)');
  }

  async accept(task: string, body: string): Promise<boolean> {
    const stored = this.ctx.storage.sql.exec('INSERT OR IGNORE INTO delivery (task, body, due) VALUES (?, ?, ?)', task, body, Date.now()).rowsWritten > 0;
    if (stored) await this.ctx.storage.setAlarm(Date.now());
    return stored;
  }

  override async alarm(): Promise<void> {
    const due = this.ctx.storage.sql.exec<{ task: string; body: string }>('SELECT task, body FROM delivery WHERE due IS NOT NULL').toArray();
    for (const { task, body } of due) {
      await this.env.TASKS.get(this.env.TASKS.idFromString(task)).start(body);
      this.ctx.storage.sql.exec('UPDATE delivery SET body = NULL, due = NULL WHERE task = ?', task);
    }
  }
}

export class Task extends DurableObject<FloorEnv> {
  constructor(ctx: DurableObjectState, env: FloorEnv) {
    super(ctx, env);
    ctx.storage.sql.exec('CREATE TABLE IF NOT EXISTS task (id INTEGER PRIMARY KEY, body TEXT NOT NULL, status TEXT NOT NULL, turn TEXT)');
  }

  async start(body: string): Promise<void> {
    const delivery = JSON.parse(body) as Delivery;
    this.ctx.storage.sql.exec('INSERT OR IGNORE INTO task (id, body, status) VALUES (1, ?, ?)', body, 'pending');
    await this.ctx.storage.setAlarm(Date.now() + 60_000);
    void this.#turn(delivery);
  }

  status(): string {
    return this.ctx.storage.sql.exec<{ status: string }>('SELECT status FROM task WHERE id = 1').toArray()[0]?.status ?? 'missing';
  }

  override async alarm(): Promise<void> {}

  async #turn(delivery: Delivery): Promise<void> {
    const { GITHUB_API_URL: api } = this.env;
    const repo = delivery.repository.full_name;
    const { number, base, head } = delivery.pull_request;
    const token = await this.#token(delivery.installation.id);
    const auth = { authorization: `token ${token}`, accept: 'application/vnd.github+json' };
    const files = (await (await fetch(`${api}/repos/${repo}/pulls/${number}/files?per_page=100&page=1`, { headers: auth })).json()) as Array<{ filename: string }>;
    const key = `trees:${repo}:${base.sha}`;
    let trees = await this.env.TOKENS.get(key, 'text');
    const read = trees === null;
    if (trees === null) {
      const [owner = '', name = ''] = repo.split('/');
      const fields = directories(files.map((file) => file.filename)).map((dir, i) => `d${i}: object(expression: ${JSON.stringify(`${base.sha}:${dir}`)}) { ... on Tree { entries { name type oid } } }`);
      const query = `query { repository(owner: ${JSON.stringify(owner)}, name: ${JSON.stringify(name)}) { ${fields.join(' ')} } }`;
      trees = await (await fetch(`${api}/graphql`, { method: 'POST', headers: auth, body: JSON.stringify({ query }) })).text();
    }
    this.ctx.storage.sql.exec('UPDATE task SET status = ?, turn = ? WHERE id = 1', 'ready', JSON.stringify({ files: files.length, trees: trees.length }));
    const check = { name: 'floor', head_sha: head.sha, status: 'completed', conclusion: 'neutral', output: { title: 'Turn 0', summary: `${files.length} files` } };
    await (await fetch(`${api}/repos/${repo}/check-runs`, { method: 'POST', headers: auth, body: JSON.stringify(check) })).body?.cancel();
    if (read) await this.env.TOKENS.put(key, trees);
  }

  async #token(installation: number): Promise<string> {
    const held = tokens.get(installation);
    if (held) return held;
    const key = `token:${installation}`;
    const [stored, jwt] = await Promise.all([this.env.TOKENS.get(key, 'text'), appJwt(this.env)]);
    if (stored) return (tokens.set(installation, stored), stored);
    const response = await fetch(`${this.env.GITHUB_API_URL}/app/installations/${installation}/access_tokens`, { method: 'POST', headers: { authorization: `Bearer ${jwt}`, accept: 'application/vnd.github+json' } });
    const { token } = (await response.json()) as { token: string };
    tokens.set(installation, token);
    this.ctx.waitUntil(this.env.TOKENS.put(key, token, { expirationTtl: 3000 }));
    return token;
  }
}

/** Each changed file's directory and every parent up to the root (''), once each. */
function directories(paths: string[]): string[] {
  const dirs = new Set<string>(['']);
  for (const path of paths) for (let at = path.lastIndexOf('/'); at > 0; at = path.lastIndexOf('/', at - 1)) dirs.add(path.slice(0, at));
  return [...dirs];
}

async function appJwt(env: FloorEnv): Promise<string> {
  signingKey ??= crypto.subtle.importKey('pkcs8', pemBytes(env.GITHUB_APP_PRIVATE_KEY), { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, false, ['sign']);
  const now = Math.floor(Date.now() / 1000);
  const part = (value: object) => base64url(encoder.encode(JSON.stringify(value)));
  const unsigned = `${part({ alg: 'RS256', typ: 'JWT' })}.${part({ iat: now - 60, exp: now + 540, iss: env.GITHUB_APP_ID })}`;
  const signature = await crypto.subtle.sign('RSASSA-PKCS1-v1_5', await signingKey, encoder.encode(unsigned));
  return `${unsigned}.${base64url(new Uint8Array(signature))}`;
}

function pemBytes(pem: string): Uint8Array {
  const binary = atob(pem.replace(/-----[^-]+-----/g, '').replace(/\s/g, ''));
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

function base64url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    if (url.pathname === '/health') return Response.json({ ok: true });
    const task = /^\/tasks\/([0-9a-f]{64})$/.exec(url.pathname)?.[1];
    if (task && request.method === 'GET') return Response.json({ status: await env.TASKS.get(env.TASKS.idFromString(task)).status() });
    if (request.method !== 'POST' || url.pathname !== '/webhooks/github') return new Response('not found', { status: 404 });
    const body = await request.arrayBuffer();
    if (!(await signatureMatches(env.GITHUB_WEBHOOK_SECRET, body, request.headers.get('X-Hub-Signature-256') ?? ''))) return new Response('bad signature', { status: 401 });
    const text = new TextDecoder().decode(body);
    JSON.parse(text);
    const id = env.TASKS.idFromName(request.headers.get('X-GitHub-Delivery') ?? '').toString();
    const stored = await env.INTAKE.get(env.INTAKE.idFromName('shard')).accept(id, text);
    return Response.json({ taskId: id, duplicate: !stored }, { status: 202 });
  },
} satisfies ExportedHandler<FloorEnv>;

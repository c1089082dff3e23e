/**
 * The webhook intake floor, measured beside Groundwork by `npm run bench -- triggers`: verify the
 * signature, parse the body, insert one row into a SQLite Durable Object named by the delivery,
 * answer as Groundwork does (`{ taskId, duplicate }`). Nothing else.
 */
import { DurableObject } from 'cloudflare:workers';
import { signatureMatches } from '../shared/github-signature.ts';

interface FloorEnv {
  GITHUB_WEBHOOK_SECRET: string;
  DELIVERIES: DurableObjectNamespace<Deliveries>;
}

export class Deliveries extends DurableObject<FloorEnv> {
  constructor(ctx: DurableObjectState, env: FloorEnv) {
    super(ctx, env);
    ctx.storage.sql.exec('CREATE TABLE IF NOT EXISTS delivery (id TEXT PRIMARY KEY, event TEXT NOT NULL, body TEXT NOT NULL)');
  }

  insert(id: string, event: string, body: string): boolean {
    return this.ctx.storage.sql.exec('INSERT OR IGNORE INTO delivery (id, event, body) VALUES (?, ?, ?)', id, event, body).rowsWritten > 0;
  }
}

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    if (url.pathname === '/health') return Response.json({ ok: true });
    if (request.method !== 'POST' || url.pathname !== '/webhooks/github') return new Response('not found', { status: 404 });
    const body = await request.arrayBuffer();
    if (!(await signatureMatches(env.GITHUB_WEBHOOK_SECRET, body, request.headers.get('X-Hub-Signature-256') ?? ''))) return new Response('bad signature', { status: 401 });
    const text = new TextDecoder().decode(body);
    JSON.parse(text);
    const event = request.headers.get('X-GitHub-Event') ?? '';
    const id = env.DELIVERIES.idFromName(request.headers.get('X-GitHub-Delivery') ?? '');
    const created = await env.DELIVERIES.get(id).insert(id.toString(), event, text);
    return Response.json({ taskId: id.toString(), duplicate: !created }, { status: 202 });
  },
} satisfies ExportedHandler<FloorEnv>;

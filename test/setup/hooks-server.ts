/**
 * @module test/setup/hooks-server
 * Vitest global setup: a local endpoint that records what the Worker POSTs to a Slack
 * `response_url`. The trigger only accepts https response URLs and workerd only completes TLS
 * with certificates it trusts, so the end-to-end tests carry requests for the https hooks host
 * here over plain HTTP (test/e2e/slack-hooks.ts); method, path, headers and body arrive as the
 * Worker sent them. `GET /__recorded` lists everything recorded so far.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestProject } from 'vitest/node';

export interface RecordedHook {
  method: string;
  path: string;
  contentType: string;
  body: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    hooksPort: number;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const recorded: RecordedHook[] = [];
  const server = createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/__recorded') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(recorded));
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      recorded.push({ method: req.method ?? '', path: req.url ?? '', contentType: req.headers['content-type'] ?? '', body: Buffer.concat(chunks).toString('utf8') });
      // Slack answers a response_url POST with a plain `ok`.
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  project.provide('hooksPort', (server.address() as AddressInfo).port);
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
}

/**
 * @module test/setup/hooks-server
 * Vitest global setup: a local endpoint that records what the Worker POSTs to a Slack
 * `response_url`. The trigger only accepts https response URLs and workerd only completes TLS
 * with certificates it trusts, so the end-to-end tests carry requests for the https hooks host
 * here over plain HTTP (test/e2e/slack-hooks.ts); method, path, headers and body arrive as the
 * Worker sent them. `GET /__recorded` lists everything recorded so far. A POST to a path under
 * `/held/` is recorded as it arrives and answered only when a test releases it
 * (`POST /__release` with the path as the body): a Slack that takes its time.
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
  /** Answers of held requests, by path, until released. */
  const held = new Map<string, Array<() => void>>();
  const server = createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/__recorded') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(recorded));
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      if (req.url === '/__release') {
        const answers = held.get(body) ?? [];
        held.delete(body);
        for (const answer of answers) answer();
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ released: answers.length }));
        return;
      }
      const path = req.url ?? '';
      recorded.push({ method: req.method ?? '', path, contentType: req.headers['content-type'] ?? '', body });
      // Slack answers a response_url POST with a plain `ok`.
      const answer = () => res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      if (path.startsWith('/held/')) held.set(path, [...(held.get(path) ?? []), answer]);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  project.provide('hooksPort', (server.address() as AddressInfo).port);
  return () => {
    // A held request keeps its connection open until told otherwise.
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  };
}

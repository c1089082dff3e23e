/**
 * @module test/support/git-http-backend
 * `git http-backend` behind a Node HTTP server, one CGI process per request: the smart-HTTP git
 * server of the tests' global setup and of the bench. Paths under `/v1/` are served as by a
 * server that predates protocol v2. Node only.
 */
import { spawn } from 'node:child_process';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { gitEnv } from './git-fixtures.ts';

/** Runs `git http-backend` for one request, translating HTTP to CGI and back. */
export function serveCgi(root: string, url: URL, req: IncomingMessage, res: ServerResponse): void {
  const legacy = url.pathname.startsWith('/v1/');
  const env: NodeJS.ProcessEnv = {
    ...gitEnv(),
    GIT_PROJECT_ROOT: root,
    GIT_HTTP_EXPORT_ALL: '1',
    PATH_INFO: decodeURIComponent(legacy ? url.pathname.slice('/v1'.length) : url.pathname),
    QUERY_STRING: url.search.slice(1),
    REQUEST_METHOD: req.method ?? 'GET',
    CONTENT_TYPE: req.headers['content-type'] ?? '',
    REMOTE_ADDR: '127.0.0.1',
    SERVER_PROTOCOL: 'HTTP/1.1',
    // http-backend reads the protocol version from here, as a web server would set it.
    HTTP_GIT_PROTOCOL: legacy ? '' : [req.headers['git-protocol'] ?? ''].flat().join(','),
    ...(req.headers['content-length'] ? { CONTENT_LENGTH: req.headers['content-length'] } : {}),
  };
  // stderr is dropped: tests probe missing repositories on purpose, and the status says enough.
  const child = spawn('git', ['http-backend'], { env, stdio: ['pipe', 'pipe', 'ignore'] });
  req.pipe(child.stdin);
  let head = Buffer.alloc(0);
  let headersSent = false;
  child.stdout.on('data', (chunk: Buffer) => {
    if (headersSent) {
      res.write(chunk);
      return;
    }
    head = Buffer.concat([head, chunk]);
    const end = head.indexOf('\r\n\r\n');
    if (end < 0) return;
    let status = 200;
    const headers: Record<string, string> = {};
    for (const line of head.subarray(0, end).toString('latin1').split('\r\n')) {
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).trim();
      const value = line.slice(colon + 1).trim();
      if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10);
      else headers[name] = value;
    }
    headersSent = true;
    res.writeHead(status, headers);
    res.write(head.subarray(end + 4));
  });
  child.on('close', () => {
    if (!headersSent) res.writeHead(502).end('http-backend produced no headers');
    else res.end();
  });
}

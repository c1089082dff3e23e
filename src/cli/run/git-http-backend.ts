/**
 * @module cli/run/git-http-backend
 * Answers one HTTP request with `git http-backend` run as a CGI program: the request becomes CGI
 * variables and stdin, the program's output becomes status, headers and body. Git's own server
 * side of smart HTTP, so a Worker fetching from it meets a genuine git server.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface CgiRequest {
  /** The directory whose subdirectories are the repositories (GIT_PROJECT_ROOT). */
  projectRoot: string;
  /** Path under the project root, e.g. `/app.git/info/refs`. */
  pathInfo: string;
  query: string;
  /** Environment for git: identity and config isolation, extra `-c` settings. */
  env: NodeJS.ProcessEnv;
  /** Serve as a server that predates protocol v2 would. */
  legacyProtocol?: boolean;
}

/** Runs `git http-backend` for one request; returns the child so a host can stop it early. */
export function serveWithHttpBackend(request: CgiRequest, req: IncomingMessage, res: ServerResponse): ChildProcess {
  const env: NodeJS.ProcessEnv = {
    ...request.env,
    GIT_PROJECT_ROOT: request.projectRoot,
    GIT_HTTP_EXPORT_ALL: '1',
    PATH_INFO: request.pathInfo,
    QUERY_STRING: request.query,
    REQUEST_METHOD: req.method ?? 'GET',
    CONTENT_TYPE: req.headers['content-type'] ?? '',
    REMOTE_ADDR: '127.0.0.1',
    SERVER_PROTOCOL: 'HTTP/1.1',
    // http-backend reads the protocol version from here, as a web server would set it.
    HTTP_GIT_PROTOCOL: request.legacyProtocol ? '' : [req.headers['git-protocol'] ?? ''].flat().join(','),
    ...(req.headers['content-length'] ? { CONTENT_LENGTH: req.headers['content-length'] } : {}),
  };
  // stderr is dropped: a probe for a missing repository is normal, and the status says enough.
  const child = spawn('git', ['http-backend'], { env, stdio: ['pipe', 'pipe', 'ignore'] });
  req.pipe(child.stdin);
  child.stdin.on('error', () => undefined);
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
  child.on('error', (error) => {
    if (!headersSent) res.writeHead(502, { 'content-type': 'text/plain' }).end(`git http-backend could not start: ${error.message}`);
  });
  child.on('close', () => {
    if (res.writableEnded) return;
    if (!headersSent) res.writeHead(502).end('http-backend produced no headers');
    else res.end();
  });
  return child;
}

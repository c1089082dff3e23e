/**
 * @module test/support/mcp-auth-proxy
 * A loopback HTTP proxy that adds `Authorization: Bearer <token>` to every request and forwards it
 * byte for byte otherwise, `Host` and `Origin` included: the official conformance suite sends no
 * credentials, and the Worker's `/mcp` answers nothing without them. Everything the suite probes
 * (methods, headers, bodies, the DNS-rebinding `Host`/`Origin` pair) reaches the Worker as sent.
 */
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface AuthProxy {
  /** `http://localhost:<port>`: loopback by name, as the suite's DNS-rebinding scenario asks. */
  origin: string;
  close(): Promise<void>;
}

export async function startAuthProxy(target: string, token: string): Promise<AuthProxy> {
  const upstream = new URL(target);
  const server = createServer((incoming, outgoing) => {
    const forwarded = request({ host: upstream.hostname, port: upstream.port, path: incoming.url, method: incoming.method, headers: { ...incoming.headers, authorization: `Bearer ${token}` } }, (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
    });
    forwarded.on('error', (error) => outgoing.writeHead(502, { 'content-type': 'text/plain' }).end(`proxy: ${error.message}`));
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { origin: `http://localhost:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

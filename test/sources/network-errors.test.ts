import { describe, expect, inject, it } from 'vitest';
import { explainNetworkErrors, NetworkError } from '../../src/lib/network-errors.ts';

const explained = explainNetworkErrors((input, init) => fetch(input, init));

describe('network failures name their cause', () => {
  it('says the TLS handshake failed when an https URL reaches a server that speaks plain HTTP', async () => {
    const port = inject('gitHttpPort');
    const failure = await explained(`https://127.0.0.1:${port}/sample.git/info/refs`).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(NetworkError);
    expect((failure as Error).message).toBe(`could not reach 127.0.0.1:${port}: TLS handshake failed`);
  });

  it('says the connection was refused when nothing listens on the port', async () => {
    const failure = await explained('http://127.0.0.1:1/repo.git/info/refs').catch((error: unknown) => error);
    expect((failure as Error).message).toBe('could not reach 127.0.0.1:1: connection refused or dropped');
  });

  it('reads a Cloudflare edge error page as the origin failure it reports', async () => {
    const edge = explainNetworkErrors(async () => new Response('<html>error code: 1016</html>', { status: 530, headers: { server: 'cloudflare' } }));
    await expect(edge('https://git.example.com/app.git/info/refs')).rejects.toThrow('could not reach git.example.com: DNS lookup failed (Cloudflare error 1016)');
    const down = explainNetworkErrors(async () => new Response('web server is down', { status: 521, headers: { server: 'cloudflare' } }));
    await expect(down('https://git.example.com/x')).rejects.toThrow('could not reach git.example.com: connection refused (Cloudflare 521)');
  });

  it('passes an answer from the server itself through, whatever its status', async () => {
    const port = inject('gitHttpPort');
    const response = await explained(`http://127.0.0.1:${port}/_unavailable/x`);
    expect(response.status).toBe(503);
  });

  it('leaves an abort by the caller as the caller’s abort', async () => {
    const controller = new AbortController();
    controller.abort(new Error('caller gave up'));
    await expect(explained('http://127.0.0.1:1/x', { signal: controller.signal })).rejects.not.toBeInstanceOf(NetworkError);
  });
});

/**
 * @module lib/network-errors
 * A fetch whose failures say why the other side could not be reached, in words a user can act on:
 * "could not reach git.example.com: DNS lookup failed". Without it a user sees what the runtime
 * says: workerd's "internal error; reference = …" for a failed DNS lookup or TLS handshake and
 * "Network connection lost." for a refused connection, Node's bare "fetch failed", or, behind
 * Cloudflare's edge, an HTML error page with status 52x or 530.
 *
 * A failure caused by the caller's own AbortSignal is passed through untouched: aborting is the
 * caller's decision, and callers tell it apart by the signal.
 */

type Fetch = (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;

export class NetworkError extends Error {
  override readonly name = 'NetworkError';
}

/** How long the TLS-or-DNS probe may take; it only runs after a fetch already failed. */
const PROBE_MS = 3000;

/** Cloudflare's own statuses for an origin it could not reach (the page is Cloudflare's, not the origin's). */
const EDGE_STATUSES: Record<number, string> = {
  521: 'connection refused (Cloudflare 521)',
  522: 'connection timed out (Cloudflare 522)',
  523: 'the host is unreachable (Cloudflare 523)',
  525: 'TLS handshake failed (Cloudflare 525)',
  526: 'the TLS certificate is not valid (Cloudflare 526)',
};

export function explainNetworkErrors(fetch: Fetch): Fetch {
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : input.toString());
    let response: Response;
    try {
      response = await fetch(input, init);
    } catch (error) {
      if (init?.signal?.aborted || (input instanceof Request && input.signal.aborted)) throw error;
      throw new NetworkError(`could not reach ${url.host}: ${await cause(fetch, url, error)}`, { cause: error });
    }
    const edge = await edgeFailure(response);
    if (edge === undefined) return response;
    await response.body?.cancel().catch(() => undefined);
    throw new NetworkError(`could not reach ${url.host}: ${edge}`);
  };
}

async function cause(fetch: Fetch, url: URL, error: unknown): Promise<string> {
  const message = error instanceof Error ? error.message : String(error);
  const code = nodeErrorCode(error);
  if (code !== undefined) return describeNodeCode(code);
  if (/^Network connection lost/i.test(message)) return 'connection refused or dropped';
  if (error instanceof Error && error.name === 'TimeoutError') return 'timed out';
  if (/^internal error; reference = /.test(message)) {
    // workerd reports a DNS failure and a TLS failure alike. A plain-HTTP probe of the same host
    // and port tells them apart: if the name resolves and the port answers, TLS was the problem.
    if (url.protocol !== 'https:') return 'DNS lookup failed';
    try {
      await fetch(`http://${url.hostname}:${url.port || '443'}/`, { method: 'HEAD', signal: AbortSignal.timeout(PROBE_MS) });
      return 'TLS handshake failed';
    } catch (probe) {
      const again = probe instanceof Error ? probe.message : '';
      return /^internal error; reference = /.test(again) ? 'DNS lookup failed' : 'TLS handshake failed';
    }
  }
  return message;
}

/** Node's fetch (undici) throws `TypeError: fetch failed` and puts the system error in `cause`. */
function nodeErrorCode(error: unknown): string | undefined {
  for (let current: unknown = error, depth = 0; current instanceof Error && depth < 4; current = current.cause, depth++) {
    if ('code' in current && typeof current.code === 'string') return current.code;
  }
  return undefined;
}

function describeNodeCode(code: string): string {
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME') return `DNS lookup failed (${code})`;
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return `connection dropped (${code})`;
  if (code === 'ETIMEDOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') return `connection timed out (${code})`;
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return `the host is unreachable (${code})`;
  if (/CERT|TLS|SSL/.test(code)) return `TLS failed (${code})`;
  return code;
}

async function edgeFailure(response: Response): Promise<string | undefined> {
  if (response.status === 530) {
    const body = await response.clone().text().catch(() => '');
    return /\b1016\b/.test(body) ? 'DNS lookup failed (Cloudflare error 1016)' : undefined;
  }
  const known = EDGE_STATUSES[response.status];
  return known !== undefined && /cloudflare/i.test(response.headers.get('server') ?? '') ? known : undefined;
}

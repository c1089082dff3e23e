// The inspector pages' security headers are written out in http/page-headers instead of built by
// hono/secure-headers at start (its option handling is about 0.9 KiB of the upload gzipped): every
// header must stay what that middleware sets with the options the pages used, the CSP's nonce
// must be the one the page's stylesheet carries, and a handler's own header is still overwritten.
import { describe, expect, it } from 'vitest';
import { Hono } from 'hono';
import { NONCE, secureHeaders } from 'hono/secure-headers';
import { NONCE_VARIABLE, pageHeaders, type PageHeadersEnv } from '../../src/http/page-headers.ts';

/** What the pages were sent with before (src/routes/views.tsx until this module). */
const hono = secureHeaders({
  contentSecurityPolicy: {
    defaultSrc: ["'none'"],
    styleSrc: [NONCE],
    baseUri: ["'none'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
  },
  xFrameOptions: 'DENY',
  referrerPolicy: 'no-referrer',
});

async function headersOf(middleware: typeof pageHeaders): Promise<{ headers: Map<string, string>; body: string }> {
  const app = new Hono<PageHeadersEnv>();
  app.use('/view', middleware);
  app.get('/view', (c) => {
    c.header('X-Frame-Options', 'SAMEORIGIN');
    c.header('X-Powered-By', 'a handler');
    return c.text(`<style nonce="${c.get(NONCE_VARIABLE) ?? ''}">`);
  });
  const response = await app.request('/view');
  return { headers: new Map(response.headers), body: await response.text() };
}

/** The CSP with its nonce taken out, and the nonce. */
function splitNonce(csp: string | undefined): { policy: string; nonce: string } {
  const nonce = /'nonce-([^']+)'/.exec(csp ?? '')?.[1] ?? '';
  return { policy: (csp ?? '').replace(nonce, '<nonce>'), nonce };
}

describe("the inspector pages' headers", () => {
  it('are every header hono/secure-headers sets with the options the pages used, the CSP aside', async () => {
    const [ours, theirs] = await Promise.all([headersOf(pageHeaders), headersOf(hono)]);
    const withoutCsp = (headers: Map<string, string>) => [...headers].filter(([name]) => name !== 'content-security-policy');
    expect(withoutCsp(ours.headers)).toEqual(withoutCsp(theirs.headers));
    expect(ours.headers.get('x-frame-options')).toBe('DENY');
    expect(ours.headers.has('x-powered-by')).toBe(false);
  });

  it("carry the same CSP, with a fresh nonce that is the stylesheet's", async () => {
    const [ours, again, theirs] = await Promise.all([headersOf(pageHeaders), headersOf(pageHeaders), headersOf(hono)]);
    const [mine, second, before] = [ours, again, theirs].map(({ headers }) => splitNonce(headers.get('content-security-policy')));
    expect(mine?.policy).toBe(before?.policy);
    expect(mine?.nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(second?.nonce).not.toBe(mine?.nonce);
    expect(ours.body).toBe(`<style nonce="${mine?.nonce}">`);
  });
});

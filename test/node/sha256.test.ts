/**
 * The CLI hashes with Node's `createHash` (cli/node-sha256: Web Crypto costs a CLI run its load,
 * issue 56); the hex must be what Web Crypto gives for the same input, strings as UTF-8.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import '../../src/cli/node-sha256.ts';
import { sha256Hex, toHex } from '../../src/lib/sha256.ts';

async function webCrypto(data: string | Uint8Array<ArrayBuffer>): Promise<string> {
  const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data;
  return toHex(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes)));
}

describe('sha256Hex with Node\'s hash installed', () => {
  it('hashes with Node, giving the known digests of "" and "abc"', async () => {
    expect(await sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(await sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(await sha256Hex('abc')).toBe(createHash('sha256').update('abc').digest('hex'));
  });

  it.each([
    ['ASCII', 'Run the tests before you commit.\n'],
    ['non-ASCII', 'Grüße — 日本語 — 🙂'],
    ['lone surrogates, which both encode as U+FFFD', 'a\uD800b\uDFFFc'],
    ['a long text', 'x'.repeat(300_000)],
  ])('equals Web Crypto on a string of %s', async (_, text) => {
    expect(await sha256Hex(text)).toBe(await webCrypto(text));
  });

  it('equals Web Crypto on bytes, a view into a larger buffer included', async () => {
    const bytes = new Uint8Array(4096).map((_, i) => (i * 37) & 255);
    const view = new Uint8Array(bytes.buffer, 100, 1000);
    expect(await sha256Hex(bytes)).toBe(await webCrypto(bytes));
    expect(await sha256Hex(view)).toBe(await webCrypto(view.slice()));
  });
});

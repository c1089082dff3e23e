/**
 * @module lib/hmac
 * HMAC-SHA256 with Web Crypto, shared by the GitHub and Slack verifiers. Comparison happens
 * inside `crypto.subtle.verify`, which compares in constant time, so no hand-written loop can
 * leak how many leading bytes matched. Every malformed input is a plain `false`.
 */
import { toHex } from './sha256.ts';

const encoder = new TextEncoder();
const HEX_SHA256 = /^[0-9a-fA-F]{64}$/;

export type Bytes = Uint8Array<ArrayBuffer>;

export function toBytes(data: Bytes | string): Bytes {
  return typeof data === 'string' ? new Uint8Array(encoder.encode(data)) : data;
}

function importHmacKey(secret: string, usage: 'sign' | 'verify'): Promise<CryptoKey> {
  return crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [usage]);
}

/** Lower-case hex HMAC-SHA256 of `data`. */
export async function hmacSha256Hex(secret: string, data: Bytes | string): Promise<string> {
  const mac = await crypto.subtle.sign('HMAC', await importHmacKey(secret, 'sign'), toBytes(data));
  return toHex(new Uint8Array(mac));
}

/**
 * True when `hex` is the HMAC-SHA256 of `data` under `secret`.
 *
 * @example
 * await verifyHmacSha256Hex('s3cret', body, '9f86d0...') // false unless it matches
 */
export async function verifyHmacSha256Hex(secret: string, data: Bytes | string, hex: string): Promise<boolean> {
  if (secret === '' || !HEX_SHA256.test(hex)) return false;
  const signature = new Uint8Array(32);
  for (let i = 0; i < 32; i++) signature[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  try {
    return await crypto.subtle.verify('HMAC', await importHmacKey(secret, 'verify'), signature, toBytes(data));
  } catch {
    // A request must never turn a crypto failure into a 500; it simply is not verified.
    return false;
  }
}

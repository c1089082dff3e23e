/**
 * @module lib/sha256
 * SHA-256 as lowercase hex, with Web Crypto (workerd and Node alike). A leaf: imports nothing,
 * so the context core, the sources and the triggers can all share it.
 */

export async function sha256Hex(data: string | Uint8Array<ArrayBuffer>): Promise<string> {
  const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data;
  return toHex(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes)));
}

export function toHex(bytes: Uint8Array): string {
  let hex = '';
  for (const byte of bytes) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

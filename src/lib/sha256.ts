/**
 * @module lib/sha256
 * SHA-256 as lowercase hex, with Web Crypto (workerd and Node alike). A leaf: imports nothing,
 * so the context core, the sources and the triggers can all share it.
 */

export async function sha256Hex(text: string): Promise<string> {
  return toHex(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text))));
}

export function toHex(bytes: Uint8Array): string {
  let hex = '';
  for (const byte of bytes) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

/**
 * @module lib/sha256
 * SHA-256 as lowercase hex, with Web Crypto (workerd and Node alike), or with a synchronous hash
 * a process installs (the CLI installs Node's, cli/node-sha256). A leaf: imports nothing, so the
 * context core, the sources and the triggers can all share it.
 */

let installed: ((data: string | Uint8Array) => string) | undefined;

/** Hashes with `hash` from now on in this process; it must give what Web Crypto gives (strings as UTF-8). */
export function installSha256(hash: (data: string | Uint8Array) => string): void {
  installed = hash;
}

export async function sha256Hex(data: string | Uint8Array<ArrayBuffer>): Promise<string> {
  if (installed) return installed(data);
  const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data;
  return toHex(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes)));
}

export function toHex(bytes: Uint8Array): string {
  let hex = '';
  for (const byte of bytes) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

/**
 * @module lib/sha256
 * SHA-256 as lowercase hex: Web Crypto in workerd, Node's own hash in Node. A leaf: imports
 * nothing, so the context core, the sources and the triggers can all share it.
 *
 * Why not Web Crypto in Node too: the first `crypto.subtle` a Node process touches loads Node's
 * Web Crypto layer (its key classes, WebIDL converters, the algorithm tables), which costs a
 * `groundwork context` or session-start hook run about 5% of what `node -e 0` costs, for two
 * digests (issue 56). `createHash` computes the same bytes from the module the CLI has loaded
 * already. workerd is told apart by its user agent, so a Worker never loads its `node:crypto`
 * layer for this.
 */

type NodeHash = (data: string | Uint8Array) => string;

let nodeHash: NodeHash | null | undefined;

export async function sha256Hex(data: string | Uint8Array<ArrayBuffer>): Promise<string> {
  nodeHash ??= findNodeHash();
  if (nodeHash) return nodeHash(data);
  const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data;
  return toHex(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes)));
}

export function toHex(bytes: Uint8Array): string {
  let hex = '';
  for (const byte of bytes) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

interface NodeCrypto {
  createHash(algorithm: 'sha256'): { update(data: string | Uint8Array, encoding?: 'utf8'): { digest(encoding: 'hex'): string } };
}

/** Node's `createHash`, or null where this is not Node (workerd, a browser). */
function findNodeHash(): NodeHash | null {
  const host = globalThis as { process?: { getBuiltinModule?: (id: string) => unknown }; navigator?: { userAgent?: string } };
  if (host.navigator?.userAgent === 'Cloudflare-Workers') return null;
  const nodeCrypto = host.process?.getBuiltinModule?.('node:crypto') as NodeCrypto | undefined;
  if (typeof nodeCrypto?.createHash !== 'function') return null;
  // Strings as UTF-8, as TextEncoder encodes them (lone surrogates become U+FFFD in both).
  return (data) => nodeCrypto.createHash('sha256').update(data, 'utf8').digest('hex');
}

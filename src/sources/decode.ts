/**
 * @module sources/decode
 * Turns blob bytes into text a model may read, or says why it is not text.
 */

export type DecodedBlob =
  | { kind: 'text'; text: string; truncated: boolean }
  | { kind: 'binary'; reason: 'nul-byte' | 'invalid-utf8' };

/** How many leading bytes are sniffed for NUL, as git's own binary heuristic does. */
const SNIFF_BYTES = 8000;

/**
 * Decodes at most `maxBytes` of `bytes` as strict UTF-8. A cut never splits a multi-byte
 * sequence: the cut moves back to the last whole character.
 */
export function decodeBlob(bytes: Uint8Array, maxBytes: number): DecodedBlob {
  const sniff = bytes.subarray(0, SNIFF_BYTES);
  if (sniff.includes(0)) return { kind: 'binary', reason: 'nul-byte' };
  const truncated = bytes.length > maxBytes;
  const end = truncated ? utf8Boundary(bytes, maxBytes) : bytes.length;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes.subarray(0, end));
  } catch {
    return { kind: 'binary', reason: 'invalid-utf8' };
  }
  return { kind: 'text', text, truncated };
}

/** Largest index <= `limit` that does not fall inside a UTF-8 multi-byte sequence. */
function utf8Boundary(bytes: Uint8Array, limit: number): number {
  let cut = Math.max(0, Math.min(limit, bytes.length));
  // Continuation bytes look like 10xxxxxx; step back over at most three of them.
  for (let steps = 0; steps < 3 && cut > 0 && cut < bytes.length; steps++) {
    const byte = bytes[cut];
    if (byte === undefined || (byte & 0xc0) !== 0x80) break;
    cut--;
  }
  return cut;
}

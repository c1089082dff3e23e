/**
 * @module sources/git/tree-object
 * A git tree object's entries: `<mode> <name>\0<20-byte id>` repeated. A tree that does not parse
 * is an error: it is damage, not an empty directory.
 */
import { Buffer } from 'node:buffer';

export interface TreeObjectEntry {
  mode: string;
  name: string;
  oid: string;
}

export function parseTree(data: Uint8Array): TreeObjectEntry[] {
  const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const items: TreeObjectEntry[] = [];
  let at = 0;
  while (at < bytes.byteLength) {
    const space = bytes.indexOf(0x20, at);
    const nul = bytes.indexOf(0, space);
    if (space < 0 || nul < 0 || nul + 21 > bytes.byteLength) throw new Error('malformed tree object');
    items.push({ mode: bytes.toString('latin1', at, space), name: bytes.toString('utf8', space + 1, nul), oid: bytes.toString('hex', nul + 1, nul + 21) });
    at = nul + 21;
  }
  return items;
}

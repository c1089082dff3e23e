/**
 * @module sources/git/pack-entry
 * The header of one object entry in a pack, shared by the CLI's packs on disk (pack-file.ts) and
 * the Worker's pack from a remote (pack-index.ts), and bounded for the latter: a header cut short
 * or a length past 2^53 is an error, never a wrap-around. Facts from git 2.39.5's
 * gitformat-pack(5), "pack-*.pack files have the following format" and "Object types":
 * - "n-byte type and length (3-bit type, (n-1)*7+4-bit length)": the first byte holds the type
 *   in bits 4-6 and the low 4 bits of the size, each byte's high bit says another follows;
 * - types 1-4 are commit, tree, blob, tag; 6 is OBJ_OFS_DELTA, 7 OBJ_REF_DELTA; 0 and 5 are invalid;
 * - OBJ_REF_DELTA is followed by the base's 20-byte name, OBJ_OFS_DELTA by the base's distance
 *   back from this entry, "n bytes with MSB set in all but the last one. The offset is then the
 *   number constructed by concatenating the lower 7 bit of each byte, and for n >= 2 adding
 *   2^7 + 2^14 + ... + 2^(7*(n-1)) to the result".
 */

export type ObjectType = 'commit' | 'tree' | 'blob' | 'tag';
export interface RawObject {
  type: ObjectType;
  data: Uint8Array;
}

export const OBJECT_TYPES: Readonly<Record<number, ObjectType>> = { 1: 'commit', 2: 'tree', 3: 'blob', 4: 'tag' };
export const OFS_DELTA = 6;
export const REF_DELTA = 7;

export interface EntryHeader {
  /** 1-4 (see {@link OBJECT_TYPES}), {@link OFS_DELTA} or {@link REF_DELTA}. */
  kind: number;
  /** The inflated size of the entry's data (the object, or the delta). */
  size: number;
  /** Bytes the header takes, base reference included: the zlib stream starts there. */
  length: number;
  /** OFS_DELTA: how far before this entry its base starts. */
  baseDistance?: number;
  /** REF_DELTA: the base's object id. */
  baseOid?: string;
}

/** Reads the header at `at`; throws on one cut short, a kind git does not define, or a number past 2^53. */
export function readEntryHeader(bytes: Uint8Array, at: number): EntryHeader {
  let pos = at;
  const byteAt = (): number => {
    const byte = bytes[pos++];
    if (byte === undefined) throw new Error(`pack entry at ${at} is cut short in its header`);
    return byte;
  };
  let byte = byteAt();
  const kind = (byte >> 4) & 7;
  let size = byte & 15;
  for (let shift = 4; byte & 0x80; shift += 7) {
    if (shift > 46) throw new Error(`pack entry at ${at} declares a size past 2^53`);
    byte = byteAt();
    size += (byte & 0x7f) * 2 ** shift;
  }
  if (kind === OFS_DELTA) {
    byte = byteAt();
    let distance = byte & 0x7f;
    while (byte & 0x80) {
      byte = byteAt();
      distance = (distance + 1) * 128 + (byte & 0x7f);
      if (distance > Number.MAX_SAFE_INTEGER) throw new Error(`pack entry at ${at} names a delta base past 2^53 bytes back`);
    }
    return { kind, size, length: pos - at, baseDistance: distance };
  }
  if (kind === REF_DELTA) {
    if (pos + 20 > bytes.byteLength) throw new Error(`pack entry at ${at} is cut short in its delta base's id`);
    const baseOid = hex(bytes.subarray(pos, pos + 20));
    return { kind, size, length: pos + 20 - at, baseOid };
  }
  if (!OBJECT_TYPES[kind]) throw new Error(`pack entry at ${at} has kind ${kind}, which git does not define`);
  return { kind, size, length: pos - at };
}

export function hex(bytes: Uint8Array): string {
  let out = '';
  for (const byte of bytes) out += byte.toString(16).padStart(2, '0');
  return out;
}

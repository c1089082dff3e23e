/**
 * @module sources/git/pack-file
 * Reads single objects out of one packfile on disk without loading the pack: the `.idx` (v2) is
 * searched in place (its fan-out table, then a binary search in the one slice of object ids that
 * can hold the id, read on demand), and only the bytes of the wanted object,
 * and of the delta bases it needs, are read from the `.pack` with positioned reads. A 200 MB pack
 * costs a few kilobytes per object instead of 200 MB of memory.
 *
 * Before the first object is read, the pack's trailer (the checksum of everything before it) is
 * compared with the one its index recorded: two small reads that tell a truncated or damaged pack
 * (a copy cut short, a disk error) from a good one, so a read from it says so instead of failing
 * on whatever bytes happen to be there.
 *
 * What a lookup costs matters on a large pack (issue 56): workers-sdk's holds 376,000 objects,
 * some 1,470 ids (29 KiB) per fan-out bucket, and a session-start hook looks up a hundred
 * objects in as many buckets. Object ids are uniformly distributed, so the id's next bytes say
 * about where in its bucket it sits: a lookup reads a window of ids around that guess and
 * searches it, and only an id outside the window reads (and keeps) the whole bucket. An object is
 * read with its header in one read, and inflated into a buffer of the size its header gives.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { constants, inflateSync } from 'node:zlib';
import { byteLru } from '../../lib/byte-lru.ts';
import { applyDelta } from './delta.ts';
import { OBJECT_TYPES, OFS_DELTA, readEntryHeader, REF_DELTA, type ObjectType, type RawObject } from './pack-entry.ts';

export type { ObjectType, RawObject };

const IDX_MAGIC = 0xff744f63;
/** Ids read around a lookup's guess; a bucket not much larger than that is read whole. */
const ID_WINDOW = 128;
/** Bytes read at an object's offset: its header and, for most trees, deltas and small files, all of it. */
const OBJECT_READ = 4096;
/** Deltas followed for an object's type before its headers are taken as damaged ({@link PackFile.info}). */
const MAX_CHAIN = 4096;
/** Trees and commits kept as delta bases, by total size: a long-lived process reads many. */
const KEPT_BASE_BYTES = 16 * 1024 * 1024;

/** An object's type and size, which its headers tell without inflating the object. */
export interface ObjectInfo {
  type: ObjectType;
  size: number;
}

/** Bytes read at an object's offset for its headers alone: the type and size, then a delta's base (at most 30 bytes). */
const HEADER_READ = 64;
/** Deflated bytes of a delta inflated for the sizes it starts with (two varints): a block header and a few codes. */
const DELTA_PREFIX = 512;

export interface PackFileOptions {
  /** Ids per lookup window ({@link ID_WINDOW}); the tests make it small to walk every path on a small pack. */
  idWindow?: number;
}

export interface PackFile {
  /** Offset of `oid` in the pack, or undefined when this pack lacks it. */
  find(oid: string): number | undefined;
  /** Full object ids in this pack that start with `prefix` (hex). */
  matching(prefix: string): string[];
  /** `resolveExternal` reads a REF_DELTA base stored elsewhere (thin packs never reach disk, but be safe). */
  read(offset: number, resolveExternal: (oid: string) => RawObject | undefined): RawObject;
  /**
   * The type and size of the object at `offset` from its headers: a delta's chain of headers
   * for the type and the first bytes of its delta for the size, never the whole object.
   * `resolveExternal` answers for a REF_DELTA base stored elsewhere. Undefined when the headers
   * cannot say (then read the object, which says why).
   */
  info(offset: number, resolveExternal: (oid: string) => ObjectInfo | undefined): ObjectInfo | undefined;
  close(): void;
}

export function openPackFile(idxPath: string, packPath: string, options: PackFileOptions = {}): PackFile {
  const idWindow = Math.max(1, options.idWindow ?? ID_WINDOW);
  const idxFd = openSync(idxPath, 'r');
  const readIdx = (position: number, length: number): Buffer => positionedRead(idxFd, position, length);
  const header = readIdx(0, 8 + 256 * 4);
  if (header.readUInt32BE(0) !== IDX_MAGIC || header.readUInt32BE(4) !== 2) throw new Error(`${idxPath}: not a version 2 pack index`);
  const count = header.readUInt32BE(8 + 255 * 4);
  const shaTable = 8 + 256 * 4;
  const offsetTable = shaTable + count * 20 + count * 4;
  const largeTable = offsetTable + count * 4;
  let fd: number | undefined;
  const cache = byteLru<number, RawObject>(KEPT_BASE_BYTES, (object) => object.data.byteLength + 64);
  /** The object ids of one fan-out bucket, read once. */
  const slices = new Map<number, Buffer>();

  const bucket = (firstByte: number): [number, number] => [firstByte === 0 ? 0 : header.readUInt32BE(8 + (firstByte - 1) * 4), header.readUInt32BE(8 + firstByte * 4)];
  const slice = (firstByte: number): { start: number; ids: Buffer } => {
    const [start, end] = bucket(firstByte);
    let ids = slices.get(firstByte);
    if (!ids) {
      ids = readIdx(shaTable + start * 20, (end - start) * 20);
      slices.set(firstByte, ids);
    }
    return { start, ids };
  };
  const offsetAt = (i: number): number => {
    const small = readIdx(offsetTable + i * 4, 4).readUInt32BE(0);
    if ((small & 0x80000000) === 0) return small;
    return Number(readIdx(largeTable + (small & 0x7fffffff) * 8, 8).readBigUInt64BE(0));
  };

  const readAt = (position: number, length: number): Buffer => {
    if (fd === undefined) {
      const opened = openSync(packPath, 'r');
      const problem = trailerProblem(opened);
      if (problem) {
        closeSync(opened);
        throw new Error(`${packPath} is ${problem}: git fsck says more, and fetching or cloning the repository again repairs it`);
      }
      fd = opened;
    }
    return positionedRead(fd, position, length);
  };

  /** Why the pack's trailer is not the checksum its index recorded, or undefined when it is. */
  const trailerProblem = (pack: number): string | undefined => {
    const packSize = fstatSync(pack).size;
    const idxSize = fstatSync(idxFd).size;
    if (packSize < 32) return `truncated (${packSize} bytes)`;
    const recorded = readIdx(idxSize - 40, 20);
    const trailer = positionedRead(pack, packSize - 20, 20);
    return trailer.equals(recorded) ? undefined : `truncated or damaged (its checksum does not match its index)`;
  };

  /**
   * Inflates the zlib stream at `position` whose output is `size` bytes; `read` holds the bytes
   * from `position` on that were read with the header, used when they are enough. The output
   * buffer is the object's size: zlib's default of 16 KiB chunks allocated that much for every
   * small object and concatenated chunks for every large one.
   */
  const inflateAt = (position: number, size: number, read: Buffer): Uint8Array => {
    const chunkSize = Math.max(64, size + 1);
    // Deflate rarely grows data by more than a few bytes per 16 KiB block; retry larger if it did.
    for (let want = size + 64 + (size >> 6); ; want *= 2) {
      const chunk = read.byteLength >= want ? read : readAt(position, want);
      try {
        const out = inflateSync(chunk, { chunkSize });
        if (out.byteLength !== size) throw new Error(`${packPath}: object at ${position} inflated to ${out.byteLength} bytes, header said ${size}`);
        return out;
      } catch (error) {
        if ((error as { code?: string }).code !== 'Z_BUF_ERROR' || chunk.byteLength < want) throw error;
      }
    }
  };

  const read = (offset: number, resolveExternal: (oid: string) => RawObject | undefined): RawObject => {
    const hit = cache.get(offset);
    if (hit) return hit;
    const head = readAt(offset, OBJECT_READ);
    let header;
    try {
      header = readEntryHeader(head, 0);
    } catch (error) {
      throw new Error(`${packPath}: ${error instanceof Error ? error.message : String(error)}`);
    }
    const { kind, size, length: at } = header;
    let object: RawObject;
    if (kind === OFS_DELTA) {
      const base = read(offset - (header.baseDistance ?? 0), resolveExternal);
      object = { type: base.type, data: applyDelta(base.data, inflateAt(offset + at, size, head.subarray(at))) };
    } else if (kind === REF_DELTA) {
      const baseOid = header.baseOid ?? '';
      const position = find(baseOid);
      const base = position === undefined ? resolveExternal(baseOid) : read(position, resolveExternal);
      if (!base) throw new Error(`${packPath}: delta base ${baseOid} is missing`);
      object = { type: base.type, data: applyDelta(base.data, inflateAt(offset + at, size, head.subarray(at))) };
    } else {
      const type = OBJECT_TYPES[kind];
      if (!type) throw new Error(`${packPath}: unknown object kind ${kind} at ${offset}`);
      object = { type, data: inflateAt(offset + at, size, head.subarray(at)) };
    }
    // Trees and commits are delta bases for each other again and again; blobs are read once.
    if (object.type !== 'blob') cache.set(offset, object);
    return object;
  };

  const info = (offset: number, resolveExternal: (oid: string) => ObjectInfo | undefined, depth = 0): ObjectInfo | undefined => {
    const hit = cache.get(offset);
    if (hit) return { type: hit.type, size: hit.data.byteLength };
    // Git's own limit on a chain is far below this; a longer one is damage, which a read reports.
    if (depth > MAX_CHAIN) return undefined;
    let header;
    try {
      header = readEntryHeader(readAt(offset, HEADER_READ), 0);
    } catch {
      // A damaged header: the read of this object reports it.
      return undefined;
    }
    const { kind, size, length: at } = header;
    const type = OBJECT_TYPES[kind];
    if (type) return { type, size };
    let base: ObjectInfo | undefined;
    if (kind === OFS_DELTA) {
      base = info(offset - (header.baseDistance ?? 0), resolveExternal, depth + 1);
    } else if (kind === REF_DELTA && header.baseOid !== undefined) {
      const position = find(header.baseOid);
      base = position === undefined ? resolveExternal(header.baseOid) : info(position, resolveExternal, depth + 1);
    }
    const resultSize = base && deltaResultSize(readAt(offset + at, DELTA_PREFIX));
    return base && resultSize !== undefined ? { type: base.type, size: resultSize } : undefined;
  };

  /** The index of `wanted` among `ids` (20-byte ids, sorted), or -1. */
  const search = (ids: Buffer, wanted: Buffer): number => {
    let low = 0;
    let high = ids.byteLength / 20;
    while (low < high) {
      const mid = (low + high) >>> 1;
      const order = ids.compare(wanted, 0, 20, mid * 20, mid * 20 + 20);
      if (order === 0) return mid;
      if (order < 0) low = mid + 1;
      else high = mid;
    }
    return -1;
  };

  const find = (oid: string): number | undefined => {
    const wanted = Buffer.from(oid, 'hex');
    if (wanted.byteLength !== 20) return undefined;
    const first = wanted[0] ?? 0;
    const [start, end] = bucket(first);
    const count = end - start;
    const whole = slices.get(first);
    if (whole === undefined && count > 2 * idWindow) {
      // Where the id would sit if ids were spread evenly over the bucket (they are: SHA-1).
      const guess = Math.floor((((wanted[1] ?? 0) * 65536 + (wanted[2] ?? 0) * 256 + (wanted[3] ?? 0)) / 16777216) * count);
      const low = Math.min(Math.max(0, guess - (idWindow >> 1)), count - idWindow);
      const ids = readIdx(shaTable + (start + low) * 20, idWindow * 20);
      const found = search(ids, wanted);
      if (found >= 0) return offsetAt(start + low + found);
      // Inside the window's range and not in it: not in the pack. Outside: search the bucket.
      const below = ids.compare(wanted, 0, 20, 0, 20) > 0;
      const above = ids.compare(wanted, 0, 20, ids.byteLength - 20, ids.byteLength) < 0;
      if ((low === 0 || !below) && (low + idWindow === count || !above)) return undefined;
    }
    const { ids } = slice(first);
    const found = search(ids, wanted);
    return found >= 0 ? offsetAt(start + found) : undefined;
  };

  return {
    find,
    matching(prefix) {
      // A short id is at least 4 hex digits, so its first byte names its bucket.
      const { ids } = slice(Number.parseInt(prefix.slice(0, 2), 16));
      const found: string[] = [];
      for (let at = 0; at < ids.byteLength; at += 20) {
        const hex = ids.toString('hex', at, at + 20);
        if (hex.startsWith(prefix)) found.push(hex);
      }
      return found;
    },
    read,
    info,
    close() {
      if (fd !== undefined) closeSync(fd);
      closeSync(idxFd);
      fd = undefined;
    },
  };
}

/**
 * The size of a delta's result, from the start of its deflated stream: a delta begins with its
 * base's size and its result's as varints, so inflating what a few hundred bytes give (a sync
 * flush of a cut stream) is enough. Undefined when they do not give both varints.
 */
function deltaResultSize(deflated: Buffer): number | undefined {
  let delta: Buffer;
  try {
    delta = inflateSync(deflated, { finishFlush: constants.Z_SYNC_FLUSH });
  } catch {
    return undefined;
  }
  let at = 0;
  const varint = (): number | undefined => {
    let value = 0;
    for (let shift = 0; at < delta.byteLength; shift += 7) {
      const byte = delta[at++] ?? 0;
      value += (byte & 0x7f) * 2 ** shift;
      if ((byte & 0x80) === 0) return value;
    }
    return undefined;
  };
  return varint() === undefined ? undefined : varint();
}

function positionedRead(fd: number, position: number, length: number): Buffer {
  const buffer = Buffer.allocUnsafe(length);
  const got = readSync(fd, buffer, 0, length, position);
  return buffer.subarray(0, got);
}

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
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { inflateSync } from 'node:zlib';
import { applyDelta } from './delta.ts';

export type ObjectType = 'commit' | 'tree' | 'blob' | 'tag';
export interface RawObject {
  type: ObjectType;
  data: Uint8Array;
}

const TYPES: Record<number, ObjectType> = { 1: 'commit', 2: 'tree', 3: 'blob', 4: 'tag' };
const OFS_DELTA = 6;
const REF_DELTA = 7;
const IDX_MAGIC = 0xff744f63;

export interface PackFile {
  /** Offset of `oid` in the pack, or undefined when this pack lacks it. */
  find(oid: string): number | undefined;
  /** Full object ids in this pack that start with `prefix` (hex). */
  matching(prefix: string): string[];
  /** `resolveExternal` reads a REF_DELTA base stored elsewhere (thin packs never reach disk, but be safe). */
  read(offset: number, resolveExternal: (oid: string) => RawObject | undefined): RawObject;
  close(): void;
}

export function openPackFile(idxPath: string, packPath: string): PackFile {
  const idxFd = openSync(idxPath, 'r');
  const readIdx = (position: number, length: number): Buffer => positionedRead(idxFd, position, length);
  const header = readIdx(0, 8 + 256 * 4);
  if (header.readUInt32BE(0) !== IDX_MAGIC || header.readUInt32BE(4) !== 2) throw new Error(`${idxPath}: not a version 2 pack index`);
  const count = header.readUInt32BE(8 + 255 * 4);
  const shaTable = 8 + 256 * 4;
  const offsetTable = shaTable + count * 20 + count * 4;
  const largeTable = offsetTable + count * 4;
  let fd: number | undefined;
  const cache = new Map<number, RawObject>();
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

  /** Inflates the zlib stream at `position` whose output is `size` bytes. */
  const inflateAt = (position: number, size: number): Uint8Array => {
    // Deflate rarely grows data by more than a few bytes per 16 KiB block; retry larger if it did.
    for (let want = size + 64 + (size >> 6); ; want *= 2) {
      const chunk = readAt(position, want);
      try {
        const out = inflateSync(chunk);
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
    const head = readAt(offset, 32);
    let byte = head[0] ?? 0;
    const kind = (byte >> 4) & 7;
    let size = byte & 15;
    let at = 1;
    for (let shift = 4; byte & 0x80; shift += 7) {
      byte = head[at++] ?? 0;
      size += (byte & 0x7f) * 2 ** shift;
    }
    let object: RawObject;
    if (kind === OFS_DELTA) {
      byte = head[at++] ?? 0;
      let distance = byte & 0x7f;
      while (byte & 0x80) {
        byte = head[at++] ?? 0;
        distance = (distance + 1) * 128 + (byte & 0x7f);
      }
      const base = read(offset - distance, resolveExternal);
      object = { type: base.type, data: applyDelta(base.data, inflateAt(offset + at, size)) };
    } else if (kind === REF_DELTA) {
      const baseOid = head.subarray(at, at + 20).toString('hex');
      const position = find(baseOid);
      const base = position === undefined ? resolveExternal(baseOid) : read(position, resolveExternal);
      if (!base) throw new Error(`${packPath}: delta base ${baseOid} is missing`);
      object = { type: base.type, data: applyDelta(base.data, inflateAt(offset + at + 20, size)) };
    } else {
      const type = TYPES[kind];
      if (!type) throw new Error(`${packPath}: unknown object kind ${kind} at ${offset}`);
      object = { type, data: inflateAt(offset + at, size) };
    }
    // Trees and commits are delta bases for each other again and again; blobs are read once.
    if (object.type !== 'blob') cache.set(offset, object);
    return object;
  };

  const find = (oid: string): number | undefined => {
    const wanted = Buffer.from(oid, 'hex');
    const { start, ids } = slice(wanted[0] ?? 0);
    let low = 0;
    let high = ids.byteLength / 20;
    while (low < high) {
      const mid = (low + high) >>> 1;
      const order = ids.compare(wanted, 0, 20, mid * 20, mid * 20 + 20);
      if (order === 0) return offsetAt(start + mid);
      if (order < 0) low = mid + 1;
      else high = mid;
    }
    return undefined;
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
    close() {
      if (fd !== undefined) closeSync(fd);
      closeSync(idxFd);
      fd = undefined;
    },
  };
}

function positionedRead(fd: number, position: number, length: number): Buffer {
  const buffer = Buffer.allocUnsafe(length);
  const got = readSync(fd, buffer, 0, length, position);
  return buffer.subarray(0, got);
}

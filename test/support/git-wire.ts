/**
 * @module test/support/git-wire
 * Git's wire format made by hand, for tests that must send what no honest server would: pkt-lines,
 * ref advertisements, upload-pack answers and packs built byte by byte (zlib and SHA-1 from
 * node:zlib and node:crypto, as the code under test uses), and a transport that answers a
 * remote source's two requests with them.
 */
import { createHash } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import type { FetchLike } from '../../src/sources/git/http-client.ts';

const encoder = new TextEncoder();

export function bytes(...parts: Array<string | Uint8Array>): Uint8Array {
  const chunks = parts.map((part) => (typeof part === 'string' ? encoder.encode(part) : part));
  const out = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0));
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}

export function pkt(data: string | Uint8Array): Uint8Array {
  const body = typeof data === 'string' ? encoder.encode(data) : data;
  return bytes((body.byteLength + 4).toString(16).padStart(4, '0'), body);
}

export const FLUSH = '0000';

/** A v0 advertisement: the service line, then refs with capabilities on the first. */
export function advertisement(refs: Array<[oid: string, name: string]>, capabilities = 'multi_ack ofs-delta side-band-64k shallow no-progress'): Uint8Array {
  const lines = refs.map(([oid, name], i) => pkt(`${oid} ${name}${i === 0 ? `\0${capabilities}` : ''}\n`));
  return bytes(pkt('# service=git-upload-pack\n'), FLUSH, ...lines, FLUSH);
}

/** An upload-pack answer to `want`, `deepen 1`, `done`: shallow lines, NAK, the pack on side-band 1. */
export function packAnswer(pack: Uint8Array, shallow: string): Uint8Array {
  const frames: Uint8Array[] = [];
  for (let at = 0; at < pack.byteLength; at += 1000) frames.push(pkt(bytes(new Uint8Array([1]), pack.subarray(at, at + 1000))));
  return bytes(pkt(`shallow ${shallow}\n`), FLUSH, pkt('NAK\n'), ...frames, FLUSH);
}

export type EntryKind = 1 | 2 | 3 | 4 | 6 | 7;

export interface PackEntry {
  kind: EntryKind;
  /** The entry's data before deflating (an object, or a delta). */
  data: Uint8Array;
  /** The size the header declares, when it is to lie. */
  declared?: number;
  /** OBJ_OFS_DELTA: the distance back to the base, as written. */
  distance?: number;
  /** OBJ_REF_DELTA: the base's id. */
  base?: string;
  /** The zlib stream to write instead of zlib's own deflating of `data`. */
  deflated?: Uint8Array;
}

export interface PackOptions {
  count?: number;
  version?: number;
  /** Bytes put between the last entry and the trailer (covered by the checksum). */
  trailing?: Uint8Array;
  badChecksum?: boolean;
}

/** A pack of `entries`; returns the bytes and each entry's offset. */
export function makePack(entries: PackEntry[], options: PackOptions = {}): { pack: Uint8Array; offsets: number[] } {
  const header = new Uint8Array(12);
  const view = new DataView(header.buffer);
  header.set(encoder.encode('PACK'));
  view.setUint32(4, options.version ?? 2);
  view.setUint32(8, options.count ?? entries.length);
  const parts: Uint8Array[] = [header];
  const offsets: number[] = [];
  let at = 12;
  for (const entry of entries) {
    offsets.push(at);
    const part = bytes(entryHeader(entry.kind, entry.declared ?? entry.data.byteLength), baseReference(entry), entry.deflated ?? deflateSync(entry.data));
    parts.push(part);
    at += part.byteLength;
  }
  if (options.trailing) parts.push(options.trailing);
  const body = bytes(...parts);
  const checksum = createHash('sha1').update(body).digest();
  if (options.badChecksum) checksum[0] = (checksum[0] ?? 0) ^ 0xff;
  return { pack: bytes(body, checksum), offsets };
}

function entryHeader(kind: number, size: number): Uint8Array {
  const out = [(kind << 4) | (size & 15)];
  let rest = Math.floor(size / 16);
  while (rest > 0) {
    out[out.length - 1] = (out[out.length - 1] ?? 0) | 0x80;
    out.push(rest & 0x7f);
    rest = Math.floor(rest / 128);
  }
  return new Uint8Array(out);
}

function baseReference(entry: PackEntry): Uint8Array {
  if (entry.kind === 7) return hexBytes(entry.base ?? '');
  if (entry.kind !== 6) return new Uint8Array(0);
  // gitformat-pack(5)'s offset encoding: 7 bits a byte, most significant first, minus one per continuation.
  let distance = entry.distance ?? 0;
  const out = [distance & 0x7f];
  while ((distance >>= 7) > 0) out.unshift(0x80 | (--distance & 0x7f));
  return new Uint8Array(out);
}

/** A delta: the sizes as varints, then instructions as given (copy and insert bytes). */
export function delta(baseSize: number, resultSize: number, ...instructions: number[][]): Uint8Array {
  return new Uint8Array([...varint(baseSize), ...varint(resultSize), ...instructions.flat()]);
}

/** Copy `size` bytes (1-255) from `offset` (0-255) of the base. */
export function copy(offset: number, size: number): number[] {
  return [0x80 | 0x01 | 0x10, offset, size];
}

/** Insert literal text (1-127 bytes). */
export function insert(text: string): number[] {
  return [text.length, ...encoder.encode(text)];
}

function varint(value: number): number[] {
  const out: number[] = [];
  do {
    out.push((value & 0x7f) | (value >= 128 ? 0x80 : 0));
    value = Math.floor(value / 128);
  } while (value > 0);
  return out;
}

export function objectId(type: string, data: Uint8Array): string {
  return createHash('sha1').update(`${type} ${data.byteLength}\0`).update(data).digest('hex');
}

/** A tree of files: `100644 <name>\0<id>` each, sorted by name as git sorts them. */
export function treeOf(files: Record<string, string>): Uint8Array {
  const names = Object.keys(files).sort();
  return bytes(...names.flatMap((name) => [`100644 ${name}\0`, hexBytes(files[name] ?? '')]));
}

export function commitOf(tree: string): Uint8Array {
  return encoder.encode(`tree ${tree}\nauthor A <a@example.com> 1700000000 +0000\ncommitter A <a@example.com> 1700000000 +0000\n\nmade by hand\n`);
}

export function hexBytes(hex: string): Uint8Array {
  return new Uint8Array(hex.match(/../g)?.map((pair) => Number.parseInt(pair, 16)) ?? []);
}

/** A transport that answers discovery with `advert` and every upload-pack POST with `answer`. */
export function scriptedRemote(advert: Uint8Array, answer: Uint8Array): FetchLike {
  return async (url, init) => {
    const type = init.method === 'GET' ? 'application/x-git-upload-pack-advertisement' : 'application/x-git-upload-pack-result';
    const body = init.method === 'GET' ? advert : answer;
    return new Response(new Uint8Array(body), { headers: { 'content-type': type } });
  };
}

/** One commit of one file as a pack: its objects' ids, and the pack. */
export function oneFileCommit(text: string): { blob: string; tree: string; commit: string; entries: PackEntry[] } {
  const blobData = encoder.encode(text);
  const blob = objectId('blob', blobData);
  const treeData = treeOf({ 'README.md': blob });
  const tree = objectId('tree', treeData);
  const commitData = commitOf(tree);
  return {
    blob,
    tree,
    commit: objectId('commit', commitData),
    entries: [
      { kind: 1, data: commitData },
      { kind: 2, data: treeData },
      { kind: 3, data: blobData },
    ],
  };
}

/**
 * `data` as a zlib stream padded with `padding` empty stored blocks before the one holding it
 * (RFC 1950/1951: legal, and what a deflater that flushes often writes): larger than zlib's own.
 */
export function paddedZlib(data: Uint8Array, padding: number): Uint8Array {
  const empty = Array.from({ length: padding }, () => [0x00, 0x00, 0x00, 0xff, 0xff]).flat();
  const length = [data.byteLength & 0xff, data.byteLength >> 8, ~data.byteLength & 0xff, (~data.byteLength >> 8) & 0xff];
  let a = 1;
  let b = 0;
  for (const byte of data) {
    a = (a + byte) % 65521;
    b = (b + a) % 65521;
  }
  const adler = [b >> 8, b & 0xff, a >> 8, a & 0xff];
  return bytes(new Uint8Array([0x78, 0x01, ...empty, 0x01, ...length]), data, new Uint8Array(adler));
}

/**
 * @module sources/git/pack-index
 * A pack a remote sent, indexed in memory: every entry is parsed, inflated and (deltas applied)
 * hashed once, so an object is found by the id its bytes hash to and by nothing the server
 * claims. Everything in it is hostile, so each step is bounded before it is taken: the object
 * count against the bytes, each entry's declared size, what the whole pack may inflate to, a delta
 * base that must be an entry before this one (OBJ_OFS_DELTA) or an object already in the pack
 * (OBJ_REF_DELTA: no thin packs are asked for), delta chains' depth, and the trailer's checksum.
 * Any violation is a {@link PermanentSourceError}: the same server sends the same bytes again.
 *
 * Format facts: git 2.39.5's gitformat-pack(5) (see pack-entry.ts): the 12-byte header
 * (`PACK`, version 2 or 3, the object count), the entries, and "the trailer records a pack
 * checksum of all of the above". Inflating uses workerd's node:zlib (nodejs_compat), whose
 * `info` result reports how many input bytes the stream took, which is where the next entry
 * starts; object ids use node:crypto's SHA-1. Only the pack is kept, plus an id → offset map;
 * objects are inflated again when read, with resolved delta bases kept in a bounded cache.
 */
import { createHash } from 'node:crypto';
import { inflateSync } from 'node:zlib';
import { byteLru } from '../../lib/byte-lru.ts';
import { PermanentSourceError } from '../permanent.ts';
import { applyDelta } from './delta.ts';
import { hex, OBJECT_TYPES, OFS_DELTA, readEntryHeader, type EntryHeader, type ObjectType, type RawObject } from './pack-entry.ts';

export interface PackLimits {
  /** Objects the pack may hold. */
  maxObjects: number;
  /** Bytes one object (or delta) may inflate to: one allocation each. */
  maxObjectBytes: number;
  /** Bytes indexing may inflate and rebuild from deltas in all: a small pack must not expand into minutes of work. */
  maxInflatedBytes: number;
  /** Deltas on deltas; git's pack-objects writes at most 4095 (`--depth`). */
  maxDeltaDepth: number;
}

export const DEFAULT_PACK_LIMITS: PackLimits = {
  maxObjects: 1_000_000,
  maxObjectBytes: 64 * 1024 * 1024,
  maxInflatedBytes: 512 * 1024 * 1024,
  maxDeltaDepth: 4095,
};

/** Resolved objects kept (delta bases, and what was read last), by total size: with the pack, well inside a Worker's 128 MB. */
const KEPT_BASE_BYTES = 16 * 1024 * 1024;
const HEADER = 12;
const TRAILER = 20;

export interface PackObjects {
  /** The object whose bytes hash to `oid`, or undefined when the pack holds none. */
  read(oid: string): RawObject | undefined;
  readonly count: number;
}

interface Entry {
  offset: number;
  header: EntryHeader;
  /** Where the entry's zlib stream starts. */
  dataAt: number;
  /** Deltas between it and a whole object, once resolved. */
  depth?: number;
}

interface InflateResult {
  buffer: Uint8Array;
  engine: { bytesWritten: number };
}

export function indexPack(pack: Uint8Array, limits: PackLimits = DEFAULT_PACK_LIMITS): PackObjects {
  if (pack.byteLength < HEADER + TRAILER) throw refused(`is ${pack.byteLength} bytes, too short for a pack's header and trailer`);
  const view = new DataView(pack.buffer, pack.byteOffset, pack.byteLength);
  if (view.getUint32(0) !== 0x5041434b) throw refused('does not start with PACK');
  const version = view.getUint32(4);
  if (version !== 2 && version !== 3) throw refused(`has version ${version}; git writes 2 and reads 2 or 3`);
  const count = view.getUint32(8);
  const end = pack.byteLength - TRAILER;
  // Every entry takes a header byte and a zlib stream of at least 8 bytes.
  if (count > limits.maxObjects || count * 9 > end - HEADER) throw refused(`claims ${count} objects in ${pack.byteLength} bytes (at most ${limits.maxObjects}, and each takes 9 bytes or more)`);
  const checksum = createHash('sha1').update(pack.subarray(0, end)).digest();
  if (hex(checksum) !== hex(pack.subarray(end))) throw refused('has a trailer that is not the checksum of its contents (damaged or cut short)');

  const body = pack.subarray(0, end);
  const entries = new Map<number, Entry>();
  const byOid = new Map<string, number>();
  const cache = byteLru<number, RawObject>(KEPT_BASE_BYTES, (object) => object.data.byteLength + 64);
  let indexing = true;
  let inflated = 0;

  const spend = (bytes: number): void => {
    if (!indexing) return;
    inflated += bytes;
    if (inflated > limits.maxInflatedBytes) throw refused(`expands to more than ${limits.maxInflatedBytes} bytes`);
  };

  /** Inflates the entry's stream; returns the data and how many bytes of the pack it took. */
  const inflate = (entry: Entry): { data: Uint8Array; consumed: number } => {
    const { size } = entry.header;
    // zlib's deflate grows data by at most 5 bytes per 16 KiB block plus a few, so this window
    // holds git's streams and the inflater never copies the rest of the pack; a stream that needs
    // more (another deflater's) gets a window twice as large, up to the end of the pack.
    let result: InflateResult | undefined;
    for (let window = size + 64 + (size >> 6); !result; window *= 2) {
      const stop = Math.min(end, entry.dataAt + window);
      try {
        result = inflateSync(body.subarray(entry.dataAt, stop), { info: true, maxOutputLength: size + 1 }) as unknown as InflateResult;
      } catch (error) {
        if (stop < end && !(error instanceof RangeError) && !String(error).includes('limit')) continue;
        throw refused(`has an entry at ${entry.offset} that does not inflate to its declared ${size} bytes (${error instanceof Error ? error.message : String(error)})`);
      }
    }
    if (result.buffer.byteLength !== size) throw refused(`has an entry at ${entry.offset} that inflates to ${result.buffer.byteLength} bytes, its header says ${size}`);
    spend(size);
    return { data: result.buffer, consumed: result.engine.bytesWritten };
  };

  const baseOf = (entry: Entry): Entry => {
    const { baseDistance, baseOid } = entry.header;
    const offset = baseOid === undefined ? entry.offset - (baseDistance ?? 0) : byOid.get(baseOid);
    const base = offset === undefined ? undefined : entries.get(offset);
    if (!base) throw refused(`has a delta at ${entry.offset} whose base ${baseOid ?? `at ${offset}`} is not in it`);
    return base;
  };

  /** The object at `entry`, applying its delta chain; `delta` is the entry's own inflated data when already at hand. */
  const objectAt = (entry: Entry, delta?: Uint8Array): RawObject => {
    const chain: Entry[] = [];
    let at = entry;
    let object = cache.get(at.offset);
    while (!object) {
      const type = OBJECT_TYPES[at.header.kind];
      if (type) {
        object = { type, data: inflate(at).data };
        cache.set(at.offset, object);
        break;
      }
      chain.push(at);
      if (chain.length > limits.maxDeltaDepth) throw refused(`has a delta chain deeper than ${limits.maxDeltaDepth} at ${entry.offset}`);
      at = baseOf(at);
      object = cache.get(at.offset);
    }
    for (let i = chain.length - 1; i >= 0; i--) {
      const link = chain[i] as Entry;
      const instructions = i === 0 && delta ? delta : inflate(link).data;
      let data: Uint8Array;
      try {
        data = applyDelta(object.data, instructions, limits.maxObjectBytes);
      } catch (error) {
        throw refused(`has a delta at ${link.offset} that does not apply (${error instanceof Error ? error.message : String(error)})`);
      }
      spend(data.byteLength);
      object = { type: object.type, data };
      cache.set(link.offset, object);
    }
    return object;
  };

  const resolved = new Set<number>();
  /** What a delta waits for: its base's id (OBJ_REF_DELTA) or its base entry's offset (OBJ_OFS_DELTA). */
  const baseKey = ({ offset, header }: Entry): string | number => header.baseOid ?? offset - (header.baseDistance ?? 0);
  /** Whether the entry's base is known: an earlier entry already resolved, or an id already hashed. */
  const ready = (entry: Entry): boolean => {
    const key = baseKey(entry);
    return typeof key === 'string' ? byOid.has(key) : resolved.has(key);
  };
  const record = (entry: Entry, object: RawObject): string => {
    // Bounded here, where each delta's base was resolved just before it, as well as where chains are walked.
    entry.depth = OBJECT_TYPES[entry.header.kind] ? 0 : (baseOf(entry).depth ?? 0) + 1;
    if (entry.depth > limits.maxDeltaDepth) throw refused(`has a delta chain deeper than ${limits.maxDeltaDepth} at ${entry.offset}`);
    resolved.add(entry.offset);
    const oid = objectId(object.type, object.data);
    // The first entry with an id keeps it: a later duplicate cannot redirect deltas already resolved.
    if (!byOid.has(oid)) byOid.set(oid, entry.offset);
    cache.set(entry.offset, object);
    return oid;
  };

  /**
   * A REF_DELTA may name a base that comes later in the pack, and deltas on a waiting delta wait
   * with it. Each waits under its base's key and is resolved when that base is, so indexing stays
   * linear in the entries whatever order a hostile pack puts its chains in.
   */
  const waiting = new Map<string | number, Array<{ entry: Entry; delta: Uint8Array }>>();
  let waitingCount = 0;
  const settle = (entry: Entry, object: RawObject): void => {
    const queue: Array<[Entry, RawObject]> = [[entry, object]];
    for (let next = queue.pop(); next; next = queue.pop()) {
      const [done, doneObject] = next;
      const oid = record(done, doneObject);
      for (const key of [oid, done.offset]) {
        const waiters = waiting.get(key);
        if (!waiters) continue;
        waiting.delete(key);
        waitingCount -= waiters.length;
        for (const waiter of waiters) queue.push([waiter.entry, objectAt(waiter.entry, waiter.delta)]);
      }
    }
  };

  let at = HEADER;
  for (let i = 0; i < count; i++) {
    if (at >= end) throw refused(`ends after ${i} of the ${count} objects it claims`);
    let header: EntryHeader;
    try {
      header = readEntryHeader(body, at);
    } catch (error) {
      throw refused(error instanceof Error ? `has a bad entry: ${error.message}` : 'has a bad entry');
    }
    if (header.size > limits.maxObjectBytes) throw refused(`has an entry at ${at} of ${header.size} bytes, more than ${limits.maxObjectBytes}`);
    if (header.kind === OFS_DELTA && (!header.baseDistance || !entries.has(at - header.baseDistance))) {
      throw refused(`has a delta at ${at} whose base (${header.baseDistance} bytes back) is not an entry before it`);
    }
    const entry: Entry = { offset: at, header, dataAt: at + header.length };
    const { data, consumed } = inflate(entry);
    entries.set(at, entry);
    at = entry.dataAt + consumed;
    const type = OBJECT_TYPES[header.kind];
    if (type) settle(entry, { type, data });
    else if (ready(entry)) settle(entry, objectAt(entry, data));
    else {
      const key = baseKey(entry);
      const waiters = waiting.get(key);
      if (waiters) waiters.push({ entry, delta: data });
      else waiting.set(key, [{ entry, delta: data }]);
      waitingCount += 1;
    }
  }
  if (at !== end) throw refused(`has ${end - at} bytes after its last object`);
  const [unresolved] = [...waiting.values()].flat();
  if (unresolved) throw refused(`has a delta at ${unresolved.entry.offset} whose base ${unresolved.entry.header.baseOid ?? 'chain'} is not in it (a thin pack, which was not asked for; ${waitingCount} deltas wait for a base)`);
  indexing = false;

  return {
    count,
    read(oid) {
      const offset = byOid.get(oid);
      const entry = offset === undefined ? undefined : entries.get(offset);
      return entry ? objectAt(entry) : undefined;
    },
  };
}

/** Git's object id: the SHA-1 of `<type> <size>\0` and the bytes. */
export function objectId(type: ObjectType, data: Uint8Array): string {
  return createHash('sha1').update(`${type} ${data.byteLength}\0`).update(data).digest('hex');
}

function refused(reason: string): PermanentSourceError {
  return new PermanentSourceError(`the pack the server sent ${reason}`);
}

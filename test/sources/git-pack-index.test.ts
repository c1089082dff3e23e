import { createHash } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { OFS_DELTA, readEntryHeader, REF_DELTA } from '../../src/sources/git/pack-entry.ts';
import { DEFAULT_PACK_LIMITS, indexPack, objectId, type PackLimits } from '../../src/sources/git/pack-index.ts';
import { PermanentSourceError } from '../../src/sources/permanent.ts';
import { bytes, copy, delta, insert, makePack, oneFileCommit, paddedZlib, type PackEntry } from '../support/git-wire.ts';

const encoder = new TextEncoder();
const text = (data: Uint8Array | undefined) => new TextDecoder().decode(data);
const blob = (content: string): PackEntry => ({ kind: 3, data: encoder.encode(content) });
const blobId = (content: string) => objectId('blob', encoder.encode(content));

/** Builds the pack twice: the second time with each ofs-delta's distance to the entry `ofsBase` names. */
function packWithOfs(entries: Array<PackEntry & { ofsBase?: number }>) {
  const { offsets } = makePack(entries);
  return makePack(entries.map((entry, i) => (entry.ofsBase === undefined ? entry : { ...entry, distance: (offsets[i] ?? 0) - (offsets[entry.ofsBase] ?? 0) })));
}

/** The reason the pack is refused; fails the test if it is accepted or fails any other way. */
function refusal(pack: Uint8Array, limits: Partial<PackLimits> = {}): string {
  try {
    indexPack(pack, { ...DEFAULT_PACK_LIMITS, ...limits });
  } catch (error) {
    expect(error).toBeInstanceOf(PermanentSourceError);
    return (error as Error).message;
  }
  throw new Error('the pack was accepted');
}

describe('indexing a pack', () => {
  it('finds each object by the id its bytes hash to, as git names it', () => {
    const made = oneFileCommit('hello\n');
    const objects = indexPack(makePack(made.entries).pack);
    expect(objects.count).toBe(3);
    // What `git hash-object` says of "hello\n".
    expect(made.blob).toBe('ce013625030ba8dba906f756967f9e9ca394464a');
    expect(text(objects.read(made.blob)?.data)).toBe('hello\n');
    expect(objects.read(made.tree)?.type).toBe('tree');
    expect(objects.read(made.commit)?.type).toBe('commit');
    expect(objects.read('0'.repeat(40))).toBeUndefined();
  });

  it('applies an ofs-delta, a ref-delta whose base comes later, and an ofs-delta on that ref-delta', () => {
    const base = 'the quick brown fox';
    const { pack } = packWithOfs([
      { kind: 7, data: delta(19, 15, copy(4, 5), insert(' brown fox')), base: blobId(base) },
      { kind: 6, data: delta(15, 20, copy(0, 15), insert(' runs')), ofsBase: 0 },
      blob(base),
      { kind: 6, data: delta(19, 25, copy(0, 19), insert(' jumps')), ofsBase: 2 },
    ]);
    const objects = indexPack(pack);
    for (const content of ['quick brown fox', 'quick brown fox runs', base, 'the quick brown fox jumps']) expect(text(objects.read(blobId(content))?.data)).toBe(content);
  });

  it('resolves a long chain of ref-deltas whose bases each come later (the chain reversed), and bounds its depth', () => {
    // v0 is a blob at the end; v(i) is v(i-1) plus one letter, a ref-delta on v(i-1) placed BEFORE it.
    const links = 250;
    const contents = Array.from({ length: links + 1 }, (_, i) => 'x'.repeat(i + 1));
    const entries: PackEntry[] = [];
    for (let i = links; i >= 1; i--) entries.push({ kind: 7, data: delta(i, i + 1, copy(0, i), insert('x')), base: blobId(contents[i - 1] as string) });
    entries.push(blob(contents[0] as string));
    const objects = indexPack(makePack(entries).pack);
    for (const content of [contents[0], contents[125], contents[links]] as string[]) expect(text(objects.read(blobId(content))?.data)).toBe(content);
    // Deeper than the limit, in the same reversed order: refused once the chain is resolved that far.
    expect(refusal(makePack(entries).pack, { maxDeltaDepth: 100 })).toContain('has a delta chain deeper than 100');
  });

  it("reads a zlib stream larger than zlib's own would be (another deflater's flushes), however far the next entry starts", () => {
    const data = encoder.encode('abc');
    const { pack } = makePack([{ kind: 3, data, deflated: paddedZlib(data, 200) }, blob('after')]);
    const objects = indexPack(pack);
    expect(text(objects.read(blobId('abc'))?.data)).toBe('abc');
    expect(text(objects.read(blobId('after'))?.data)).toBe('after');
  });
});

describe('a hostile pack is refused, naming what is wrong', () => {
  const good = oneFileCommit('hello\n');

  it('refuses what is not a pack: too short, another magic, another version', () => {
    expect(refusal(new Uint8Array(20))).toBe('the pack the server sent is 20 bytes, too short for a pack\'s header and trailer');
    const { pack } = makePack(good.entries);
    const renamed = pack.slice();
    renamed[0] = 0x51;
    expect(refusal(renamed)).toBe('the pack the server sent does not start with PACK');
    expect(refusal(makePack(good.entries, { version: 4 }).pack)).toContain('has version 4');
  });

  it('refuses an object count the bytes cannot hold, or above the limit', () => {
    expect(refusal(makePack(good.entries, { count: 0xffffffff }).pack)).toContain('claims 4294967295 objects');
    expect(refusal(makePack(good.entries).pack, { maxObjects: 2 })).toContain('claims 3 objects');
  });

  it('refuses a pack that ends early, has bytes after its last object, or a trailer that is not its checksum', () => {
    const entries = [...good.entries, blob('a longer blob, long enough to make room for one more')];
    expect(refusal(makePack(entries, { count: 5 }).pack)).toMatch(/ends after 4 of the 5 objects|claims 5 objects/);
    expect(refusal(makePack(good.entries, { trailing: new Uint8Array([1, 2, 3]) }).pack)).toBe('the pack the server sent has 3 bytes after its last object');
    expect(refusal(makePack(good.entries, { badChecksum: true }).pack)).toContain('a trailer that is not the checksum of its contents');
  });

  it('refuses an entry whose declared size is above the limit or is not what it inflates to', () => {
    expect(refusal(makePack([{ ...blob('abc'), declared: 2 ** 40 }]).pack)).toContain(`of ${2 ** 40} bytes, more than ${DEFAULT_PACK_LIMITS.maxObjectBytes}`);
    expect(refusal(makePack([{ ...blob('abcdef'), declared: 3 }]).pack)).toContain('does not inflate to its declared 3 bytes');
    expect(refusal(makePack([{ ...blob('abc'), declared: 6 }]).pack)).toContain('inflates to 3 bytes, its header says 6');
  });

  it('refuses a kind git does not define and a header cut short', () => {
    const made = makePack([blob('abc')]);
    const five = made.pack.slice();
    five[12] = ((five[12] ?? 0) & 0x8f) | (5 << 4);
    expect(refusal(fixChecksum(five))).toContain('kind 5, which git does not define');
    // A size whose continuation bits never end: the header runs into the trailer.
    const endless = bytes(made.pack.subarray(0, 12), new Uint8Array(30).fill(0xb0));
    expect(refusal(fixChecksum(bytes(endless, new Uint8Array(20))))).toMatch(/size past 2\^53|cut short/);
  });

  it('refuses a pack that expands past what it may inflate to', () => {
    const zeros = { kind: 3 as const, data: new Uint8Array(1024 * 1024) };
    const { pack } = makePack([zeros, zeros, zeros]);
    expect(pack.byteLength).toBeLessThan(8 * 1024);
    expect(refusal(pack, { maxInflatedBytes: 2 * 1024 * 1024 })).toBe(`the pack the server sent expands to more than ${2 * 1024 * 1024} bytes`);
  });

  it('refuses an ofs-delta whose base is not an entry before it', () => {
    const patch = delta(3, 3, copy(0, 3));
    expect(refusal(makePack([blob('abc'), { kind: 6, data: patch, distance: 0 }]).pack)).toContain('whose base (0 bytes back) is not an entry before it');
    expect(refusal(makePack([blob('abc'), { kind: 6, data: patch, distance: 1 }]).pack)).toContain('whose base (1 bytes back) is not an entry before it');
    expect(refusal(makePack([blob('abc'), { kind: 6, data: patch, distance: 100_000 }]).pack)).toContain('whose base (100000 bytes back)');
  });

  it('refuses a ref-delta whose base is not in the pack (a thin pack)', () => {
    const absent = 'a'.repeat(40);
    expect(refusal(makePack([blob('abc'), { kind: 7, data: delta(3, 3, copy(0, 3)), base: absent }]).pack)).toContain(`whose base ${absent} is not in it (a thin pack`);
  });

  it('refuses a delta that reads past its base, declares another base size, or a result above the limit', () => {
    const over = packWithOfs([blob('abc'), { kind: 6, data: delta(3, 10, copy(0, 10)), ofsBase: 0 }]).pack;
    expect(refusal(over)).toContain('that does not apply (delta copies outside its base or result)');
    const sized = packWithOfs([blob('abc'), { kind: 6, data: delta(4, 3, copy(0, 3)), ofsBase: 0 }]).pack;
    expect(refusal(sized)).toContain('delta expects a base of 4 bytes, got 3');
    const huge = packWithOfs([blob('abc'), { kind: 6, data: delta(3, 2 ** 40, copy(0, 3)), ofsBase: 0 }]).pack;
    expect(refusal(huge)).toContain(`delta declares a result of ${2 ** 40} bytes, more than the ${DEFAULT_PACK_LIMITS.maxObjectBytes} allowed`);
  });

  it('refuses a delta chain deeper than the limit', () => {
    const chain: Array<PackEntry & { ofsBase?: number }> = [blob('x')];
    for (let i = 1; i <= 6; i++) chain.push({ kind: 6, data: delta(i, i + 1, copy(0, i), insert('x')), ofsBase: i - 1 });
    const { pack } = packWithOfs(chain);
    expect(indexPack(pack).read(blobId('xxxxxxx'))?.data.byteLength).toBe(7);
    expect(refusal(pack, { maxDeltaDepth: 4 })).toContain('a delta chain deeper than 4');
  });
});

describe("delta chains written by real git (git pack-objects without --delta-base-offset)", () => {
  const fixture = inject('gitHttpFixtures').deltas;
  const pack = Uint8Array.from(atob(fixture.refPack), (char) => char.charCodeAt(0));

  it('holds ref-deltas in chains, as git verify-pack says', () => {
    const deltas = fixture.refPackObjects.filter((object) => object.depth !== undefined);
    expect(deltas.length).toBeGreaterThan(10);
    expect(Math.max(...deltas.map((object) => object.depth ?? 0))).toBeGreaterThan(2);
    for (const object of deltas) expect(readEntryHeader(pack, object.offset)).toMatchObject({ kind: REF_DELTA, baseOid: object.base });
    expect(deltas.some((object) => readEntryHeader(pack, object.offset).kind === OFS_DELTA)).toBe(false);
  });

  it('reads every object git lists, of the type git gives, hashing to its id', () => {
    const objects = indexPack(pack);
    expect(objects.count).toBe(fixture.refPackObjects.length);
    for (const { oid, type } of fixture.refPackObjects) {
      const object = objects.read(oid);
      expect(object?.type).toBe(type);
      expect(objectId(type as 'blob', object?.data ?? new Uint8Array())).toBe(oid);
    }
  });
});

/** Rewrites a pack's trailer to the checksum of what precedes it, so only the change under test is wrong. */
function fixChecksum(pack: Uint8Array): Uint8Array {
  const body = pack.subarray(0, pack.byteLength - 20);
  const out = pack.slice();
  out.set(createHash('sha1').update(body).digest(), pack.byteLength - 20);
  return out;
}

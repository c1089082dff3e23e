/**
 * @module sources/git/delta
 * Git's delta format: the base's size and the result's size as varints, then instructions that
 * either copy a range of the base (high bit set; which offset and size bytes follow is a bitmask)
 * or insert the next 1-127 literal bytes. Every copy and insert is checked against the base, the
 * delta and the declared result, so a hostile delta fails instead of reading or writing out of
 * bounds; `maxSize` bounds the result before it is allocated.
 */

export function applyDelta(base: Uint8Array, delta: Uint8Array, maxSize = Number.MAX_SAFE_INTEGER): Uint8Array {
  let at = 0;
  const varint = (): number => {
    let value = 0;
    let shift = 0;
    let byte: number;
    do {
      byte = delta[at++] ?? 0;
      value += (byte & 0x7f) * 2 ** shift;
      shift += 7;
    } while (byte & 0x80);
    return value;
  };
  const baseSize = varint();
  if (baseSize !== base.byteLength) throw new Error(`delta expects a base of ${baseSize} bytes, got ${base.byteLength}`);
  const size = varint();
  if (size > maxSize) throw new Error(`delta declares a result of ${size} bytes, more than the ${maxSize} allowed`);
  const out = new Uint8Array(size);
  let written = 0;
  while (at < delta.byteLength) {
    const op = delta[at++] ?? 0;
    if (op & 0x80) {
      let offset = 0;
      let size = 0;
      for (let bit = 0; bit < 4; bit++) if (op & (1 << bit)) offset += (delta[at++] ?? 0) * 2 ** (8 * bit);
      for (let bit = 0; bit < 3; bit++) if (op & (0x10 << bit)) size += (delta[at++] ?? 0) * 2 ** (8 * bit);
      if (size === 0) size = 0x10000;
      if (offset + size > base.byteLength || written + size > out.byteLength) throw new Error('delta copies outside its base or result');
      out.set(base.subarray(offset, offset + size), written);
      written += size;
    } else if (op > 0) {
      if (written + op > out.byteLength || at + op > delta.byteLength) throw new Error('delta inserts past its result');
      out.set(delta.subarray(at, at + op), written);
      at += op;
      written += op;
    } else {
      throw new Error('delta has a reserved instruction 0');
    }
  }
  if (written !== out.byteLength) throw new Error(`delta produced ${written} of ${out.byteLength} bytes`);
  return out;
}

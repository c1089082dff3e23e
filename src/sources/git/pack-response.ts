/**
 * @module sources/git/pack-response
 * The answer to a protocol v0 fetch (`want`, `deepen 1`, `done`), read as hostile input, down to
 * the pack it carries. Facts from git 2.39.5's gitprotocol-pack(5):
 * - "Packfile Negotiation": after a positive depth request the server first sends `shallow` and
 *   `unshallow` lines and a flush-pkt; after `done` it sends one `NAK` (no common base: we send no
 *   `have`) or `ACK <id>`; "instead of ACK or NAK, the server may send an error message";
 * - "Packfile Data": with side-band(-64k) every pkt-line's first byte names a band: 1 pack data,
 *   2 progress, 3 an error message; without it the pack follows as raw bytes.
 * The pkt-lines themselves are bounded in pkt-line.ts.
 */
import { malformed, packetReader, packetText, ServerRefusal, shown } from './pkt-line.ts';
import { concatBytes } from '../../lib/bytes.ts';

const OID = /^[0-9a-f]{40}$/;
const what = 'the upload-pack answer';

export interface PackAnswerOptions {
  /** A depth was asked for, so shallow lines and a flush-pkt come first. */
  deepened: boolean;
  /** side-band or side-band-64k was asked for. */
  sideband: boolean;
}

export function packFromAnswer(body: Uint8Array, { deepened, sideband }: PackAnswerOptions): Uint8Array {
  const reader = packetReader(body, what);
  const line = (): string | undefined => {
    const packet = reader.next();
    if (packet === undefined) throw malformed(`${what} ends before its pack`);
    if (packet.type === 'flush') return undefined;
    if (packet.type !== 'data') throw malformed(`${what} has a ${packet.type} packet where a line belongs`);
    return packetText(packet.data);
  };
  if (deepened) {
    for (let text = line(); text !== undefined; text = line()) {
      const [keyword, oid, extra] = text.split(' ');
      if ((keyword !== 'shallow' && keyword !== 'unshallow') || oid === undefined || !OID.test(oid) || extra !== undefined) {
        throw malformed(`${what} has ${shown(text)} where shallow lines belong`);
      }
    }
  }
  const acknowledgement = line();
  if (acknowledgement === undefined || !(acknowledgement === 'NAK' || /^ACK [0-9a-f]{40}( \w+)?$/.test(acknowledgement))) {
    throw malformed(`${what} has ${shown(acknowledgement ?? 'a flush-pkt')} where NAK belongs`);
  }
  if (!sideband) return reader.rest();
  const parts: Uint8Array[] = [];
  for (;;) {
    const packet = reader.next();
    if (packet === undefined) throw malformed(`${what} ends without the flush-pkt that closes its pack`);
    if (packet.type === 'flush') break;
    if (packet.type !== 'data' || packet.data.byteLength === 0) throw malformed(`${what} has an empty or ${packet.type} packet inside its pack`);
    const band = packet.data[0];
    if (band === 1) parts.push(packet.data.subarray(1));
    else if (band === 3) throw new ServerRefusal(shown(new TextDecoder().decode(packet.data.subarray(1)).trim()));
    else if (band !== 2) throw malformed(`${what} has side-band ${band}, not 1, 2 or 3`);
  }
  if (reader.next() !== undefined) throw malformed(`${what} goes on after the flush-pkt that closes its pack`);
  return concatBytes(parts);
}

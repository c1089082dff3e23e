/**
 * @module sources/git/pkt-line
 * Git's pkt-line framing, read from bytes a remote sent, so every length is checked before it
 * is used. Facts from git 2.39.5's own documentation (the version the tests' `git http-backend`
 * runs; the same text is in git/git Documentation/gitprotocol-common.adoc and gitprotocol-v2.adoc):
 * - gitprotocol-common(5), "pkt-line Format": four hex digits give the length of the line
 *   including themselves; "the maximum length of a pkt-line's data component is 65516 bytes"
 *   (65520 with the length); `0000` is a flush-pkt.
 * - gitprotocol-v2(5): `0001` is a delim-pkt, `0002` a response-end-pkt; lengths 1-3 carry no data.
 * - gitprotocol-pack(5): a server may answer with an `ERR <message>` line instead of what was
 *   asked (for example, "if it does not recognize an object in a want line").
 */
import { PermanentSourceError } from '../permanent.ts';

export const MAX_PKT_LENGTH = 65520;

export type Packet = { type: 'data'; data: Uint8Array } | { type: 'flush' } | { type: 'delim' } | { type: 'end' };

export interface PacketReader {
  /** The next packet, or undefined at the end of the bytes; throws on a malformed one. */
  next(): Packet | undefined;
  /** The bytes after the last packet read (a pack sent without side-band framing). */
  rest(): Uint8Array;
}

/** An `ERR` line from the server: what it said, cleaned of control characters and cut short. */
export class ServerRefusal extends PermanentSourceError {
  readonly said: string;
  constructor(said: string) {
    super(`the server refused: ${said}`);
    this.said = said;
  }
}

const SPECIAL: Record<number, Packet> = { 0: { type: 'flush' }, 1: { type: 'delim' }, 2: { type: 'end' } };
const HEX4 = /^[0-9a-fA-F]{4}$/;
const latin1 = new TextDecoder('latin1');

/** `what` names the response in errors ("the ref listing"). */
export function packetReader(bytes: Uint8Array, what: string): PacketReader {
  let at = 0;
  return {
    next() {
      if (at === bytes.byteLength) return undefined;
      if (at + 4 > bytes.byteLength) throw malformed(`${what} ends inside a pkt-line length`);
      const hex = latin1.decode(bytes.subarray(at, at + 4));
      if (!HEX4.test(hex)) throw malformed(`${what} has a pkt-line length that is not four hex digits (${shown(hex)})`);
      const length = Number.parseInt(hex, 16);
      const special = SPECIAL[length];
      if (special) {
        at += 4;
        return special;
      }
      if (length < 4) throw malformed(`${what} has a pkt-line of reserved length ${length}`);
      if (length > MAX_PKT_LENGTH) throw malformed(`${what} has a pkt-line of ${length} bytes, more than git's ${MAX_PKT_LENGTH}`);
      if (at + length > bytes.byteLength) throw malformed(`${what} is cut short inside a pkt-line of ${length} bytes`);
      const data = bytes.subarray(at + 4, at + length);
      at += length;
      return { type: 'data', data };
    },
    rest: () => bytes.subarray(at),
  };
}

/** A data packet as text without its trailing LF; throws {@link ServerRefusal} for an `ERR` line. */
export function packetText(data: Uint8Array): string {
  const text = new TextDecoder().decode(data[data.byteLength - 1] === 0x0a ? data.subarray(0, -1) : data);
  if (text.startsWith('ERR ')) throw new ServerRefusal(shown(text.slice(4)));
  return text;
}

/** One pkt-line of ASCII text (requests are ours: wants, commands, ref prefixes already checked). */
export function pktLine(text: string): string {
  return `${(text.length + 4).toString(16).padStart(4, '0')}${text}`;
}

export const FLUSH_PKT = '0000';
export const DELIM_PKT = '0001';

/** Text from the remote as it may appear in an error: printable, at most 200 characters. */
export function shown(text: string): string {
  const clean = text.replace(/[\x00-\x1f\x7f-\x9f]/g, '?');
  return JSON.stringify(clean.length > 200 ? `${clean.slice(0, 200)}…` : clean);
}

export function malformed(reason: string): PermanentSourceError {
  return new PermanentSourceError(`${reason}: not a git server's answer`);
}

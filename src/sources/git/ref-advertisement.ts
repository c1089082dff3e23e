/**
 * @module sources/git/ref-advertisement
 * What a smart-HTTP server says in answer to `GET info/refs?service=git-upload-pack`, and to
 * protocol v2's `ls-refs`, read as hostile input: every line is checked, a ref whose name git
 * itself would refuse is refused, and the number of refs is bounded. Facts from git 2.39.5's
 * documentation (git/git Documentation/*.adoc):
 * - gitprotocol-http(5), "Smart Server Response": an optional `# service=git-upload-pack` line
 *   and a flush-pkt, then the ref list; capabilities follow a NUL on the first ref; an empty
 *   repository sends `capabilities^{}` with the zero id; `<name>^{}` is the peeled tag before it.
 * - gitprotocol-v2(5), "HTTP Transport" and "Capability Advertisement": a v2 server answers
 *   `version 2` and one capability per line up to a flush-pkt (git http-backend sends no
 *   `# service=` line then; other servers may). "ls-refs": each ref is
 *   `obj-id-or-unborn SP refname *(SP ref-attribute)`, attributes `symref-target:` and `peeled:`.
 */
import { packetReader, packetText, malformed, shown, type PacketReader } from './pkt-line.ts';
import { isValidRefName } from './ref-name.ts';

export interface AdvertisedRef {
  name: string;
  oid: string;
  /** For an annotated tag, the object it points at. */
  peeled?: string;
}

export type Advertisement = { version: 2; capabilities: Set<string> } | { version: 0; capabilities: Set<string>; refs: AdvertisedRef[] };

/** Refs one answer may list: the budget bounds bytes, this bounds the work and memory per ref. */
export const MAX_REFS = 200_000;

const OID = /^[0-9a-f]{40}$/;
const ZERO_OID = '0'.repeat(40);

/** Parses the answer to `GET info/refs?service=git-upload-pack`. */
export function parseAdvertisement(body: Uint8Array): Advertisement {
  const what = 'the ref advertisement';
  const reader = packetReader(body, what);
  let first = nextLine(reader, what);
  if (first?.startsWith('# service=')) {
    if (first !== '# service=git-upload-pack') throw malformed(`${what} is for another service (${shown(first)})`);
    if (reader.next()?.type !== 'flush') throw malformed(`${what} has no flush-pkt after its service line`);
    first = nextLine(reader, what);
  }
  if (first === 'version 2') return { version: 2, capabilities: readCapabilities(reader, what) };
  if (first === 'version 1') first = nextLine(reader, what);
  if (first === undefined) throw malformed(`${what} lists no refs and no capabilities`);
  const nul = first.indexOf('\0');
  if (nul < 0) throw malformed(`${what} has no capabilities on its first line`);
  const capabilities = new Set(first.slice(nul + 1).split(' ').filter((item) => item !== ''));
  const refs: AdvertisedRef[] = [];
  for (let line: string | undefined = first.slice(0, nul); line !== undefined; line = nextLine(reader, what)) {
    const [oid, name] = refLine(line, what);
    if (name === 'capabilities^{}' && oid === ZERO_OID) continue;
    if (name.endsWith('^{}')) {
      const tag = refs[refs.length - 1];
      if (!tag || tag.name !== name.slice(0, -3)) throw malformed(`${what} peels ${shown(name)} without naming the tag first`);
      tag.peeled = oid;
      continue;
    }
    checkName(name, what);
    refs.push({ name, oid });
    if (refs.length > MAX_REFS) throw malformed(`${what} lists more than ${MAX_REFS} refs`);
  }
  return { version: 0, capabilities, refs };
}

/** Parses the answer to a v2 `ls-refs` request. */
export function parseLsRefs(body: Uint8Array): AdvertisedRef[] {
  const what = 'the ls-refs answer';
  const reader = packetReader(body, what);
  const refs: AdvertisedRef[] = [];
  for (let line = nextLine(reader, what); line !== undefined; line = nextLine(reader, what)) {
    const [id, name, ...attributes] = line.split(' ');
    if (id === 'unborn') continue;
    if (id === undefined || name === undefined || !OID.test(id)) throw malformed(`${what} has a line that is not a ref (${shown(line)})`);
    checkName(name, what);
    const ref: AdvertisedRef = { name, oid: id };
    for (const attribute of attributes) {
      if (attribute.startsWith('peeled:')) {
        const peeled = attribute.slice('peeled:'.length);
        if (!OID.test(peeled)) throw malformed(`${what} peels ${shown(name)} to ${shown(peeled)}, not an object id`);
        ref.peeled = peeled;
      }
    }
    refs.push(ref);
    if (refs.length > MAX_REFS) throw malformed(`${what} lists more than ${MAX_REFS} refs`);
  }
  return refs;
}

/** The object format a capability list names (`object-format=sha256`), sha1 when it names none. */
export function objectFormat(capabilities: Set<string>): string {
  for (const capability of capabilities) if (capability.startsWith('object-format=')) return capability.slice('object-format='.length);
  return 'sha1';
}

function readCapabilities(reader: PacketReader, what: string): Set<string> {
  const capabilities = new Set<string>();
  for (let line = nextLine(reader, what); line !== undefined; line = nextLine(reader, what)) capabilities.add(line);
  return capabilities;
}

/** The next data line as text, or undefined at a flush-pkt; the answer must not end before it. */
function nextLine(reader: PacketReader, what: string): string | undefined {
  const packet = reader.next();
  if (packet === undefined) throw malformed(`${what} ends before its flush-pkt`);
  if (packet.type === 'flush') return undefined;
  if (packet.type !== 'data') throw malformed(`${what} has a ${packet.type} packet where a line belongs`);
  return packetText(packet.data);
}

function refLine(line: string, what: string): [string, string] {
  const space = line.indexOf(' ');
  const oid = line.slice(0, space);
  if (space < 0 || !OID.test(oid)) throw malformed(`${what} has a line that is not a ref (${shown(line)})`);
  return [oid, line.slice(space + 1)];
}

function checkName(name: string, what: string): void {
  if (name !== 'HEAD' && !(name.startsWith('refs/') && isValidRefName(name))) throw malformed(`${what} names a ref git would refuse: ${shown(name)}`);
}

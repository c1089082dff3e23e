import { describe, expect, it } from 'vitest';
import { packetReader, packetText, ServerRefusal } from '../../src/sources/git/pkt-line.ts';
import { packFromAnswer } from '../../src/sources/git/pack-response.ts';
import { parseAdvertisement, parseLsRefs } from '../../src/sources/git/ref-advertisement.ts';
import { createRemoteGitSource } from '../../src/sources/git/remote-source.ts';
import { PermanentSourceError } from '../../src/sources/permanent.ts';
import { advertisement, bytes, FLUSH, makePack, oneFileCommit, packAnswer, pkt, scriptedRemote } from '../support/git-wire.ts';

const OID = 'c'.repeat(40);
const all = (body: Uint8Array) => {
  const reader = packetReader(body, 'the answer');
  const seen: string[] = [];
  for (let packet = reader.next(); packet; packet = reader.next()) seen.push(packet.type === 'data' ? packetText(packet.data) : packet.type);
  return seen;
};
const thrown = (run: () => unknown): Error => {
  try {
    run();
  } catch (error) {
    return error as Error;
  }
  throw new Error('nothing was thrown');
};

describe('pkt-lines from a remote', () => {
  it('reads data, flush, delim and response-end packets', () => {
    expect(all(bytes(pkt('a\n'), FLUSH, '0001', pkt('b'), '0002'))).toEqual(['a', 'flush', 'delim', 'b', 'end']);
  });

  it.each([
    ['a length that is not hex', bytes('00zz'), 'has a pkt-line length that is not four hex digits ("00zz")'],
    ['the reserved length 3', bytes('0003'), 'has a pkt-line of reserved length 3'],
    ['a length above 65520', bytes('fff1', new Uint8Array(65520)), 'has a pkt-line of 65521 bytes, more than git\'s 65520'],
    ['a line cut short', bytes('0010abc'), 'is cut short inside a pkt-line of 16 bytes'],
    ['a length cut short', bytes(pkt('a'), '00'), 'ends inside a pkt-line length'],
  ])('refuses %s as a permanent failure', (_label, body, reason) => {
    const error = thrown(() => all(body));
    expect(error).toBeInstanceOf(PermanentSourceError);
    expect(error.message).toBe(`the answer ${reason}: not a git server's answer`);
  });

  it('turns an ERR line into a refusal that quotes the server, cleaned and cut short', () => {
    const error = thrown(() => all(pkt(`ERR access denied\x1b[31m${'x'.repeat(300)}\n`)));
    expect(error).toBeInstanceOf(ServerRefusal);
    expect(error.message).toMatch(/^the server refused: "access denied\?\[31mx+…"$/);
    expect(error.message.length).toBeLessThan(240);
  });
});

describe('ref advertisements from a remote', () => {
  it('reads refs, capabilities and peeled tags (v0) and refs with attributes (ls-refs)', () => {
    const advert = parseAdvertisement(advertisement([[OID, 'HEAD'], [OID, 'refs/heads/main'], ['d'.repeat(40), 'refs/tags/v1'], [OID, 'refs/tags/v1^{}']]));
    expect(advert).toMatchObject({ version: 0, refs: [{ name: 'HEAD' }, { name: 'refs/heads/main' }, { name: 'refs/tags/v1', oid: 'd'.repeat(40), peeled: OID }] });
    expect(advert.capabilities.has('side-band-64k')).toBe(true);
    expect(parseLsRefs(bytes(pkt(`${OID} refs/tags/v1 peeled:${'e'.repeat(40)}\n`), FLUSH))).toEqual([{ name: 'refs/tags/v1', oid: OID, peeled: 'e'.repeat(40) }]);
  });

  it.each([
    ['a name git would refuse', advertisement([[OID, 'refs/heads/a..b']]), 'names a ref git would refuse: "refs/heads/a..b"'],
    ['a name outside refs/', advertisement([[OID, '../../etc/passwd']]), 'names a ref git would refuse: "../../etc/passwd"'],
    ['a line without an object id', advertisement([['not-an-id', 'refs/heads/main']]), 'has a line that is not a ref'],
    ['a peeled ref with no tag before it', advertisement([[OID, 'HEAD'], [OID, 'refs/tags/v2^{}']]), 'peels "refs/tags/v2^{}" without naming the tag first'],
    ['another service', bytes(pkt('# service=git-receive-pack\n'), FLUSH, FLUSH), 'is for another service'],
    ['no flush at the end', bytes(pkt('# service=git-upload-pack\n'), FLUSH, pkt(`${OID} HEAD\0ofs-delta\n`)), 'ends before its flush-pkt'],
  ])('refuses %s', (_label, body, reason) => {
    const error = thrown(() => parseAdvertisement(body));
    expect(error).toBeInstanceOf(PermanentSourceError);
    expect(error.message).toContain(`the ref advertisement ${reason}`);
  });

  it('refuses an ls-refs answer with a bad name, a bad peeled id or more refs than it may list', () => {
    expect(thrown(() => parseLsRefs(bytes(pkt(`${OID} refs/heads/x\x01y\n`), FLUSH))).message).toContain('names a ref git would refuse');
    expect(thrown(() => parseLsRefs(bytes(pkt(`${OID} refs/tags/v1 peeled:zz\n`), FLUSH))).message).toContain('peels "refs/tags/v1" to "zz", not an object id');
    const line = pkt(`${OID} refs/heads/b\n`);
    const many = new Uint8Array(line.byteLength * 200_001 + 4);
    for (let i = 0; i < 200_001; i++) many.set(line, i * line.byteLength);
    many.set(new TextEncoder().encode(FLUSH), line.byteLength * 200_001);
    expect(thrown(() => parseLsRefs(many)).message).toContain('lists more than 200000 refs');
  });
});

describe('upload-pack answers from a remote', () => {
  const { pack } = makePack(oneFileCommit('hi\n').entries);
  const options = { deepened: true, sideband: true };

  it('takes the pack out of side-band 1, skipping progress on band 2', () => {
    const answer = bytes(pkt(`shallow ${OID}\n`), FLUSH, pkt('NAK\n'), pkt(bytes(new Uint8Array([2]), 'Counting objects\n')), pkt(bytes(new Uint8Array([1]), pack)), FLUSH);
    expect(packFromAnswer(answer, options)).toEqual(pack);
    expect(packFromAnswer(bytes(pkt('NAK\n'), pack), { deepened: false, sideband: false })).toEqual(pack);
  });

  it.each([
    ['an error on band 3', bytes(pkt(`shallow ${OID}\n`), FLUSH, pkt('NAK\n'), pkt(bytes(new Uint8Array([3]), 'disk full\n')), FLUSH), 'the server refused: "disk full"'],
    ['band 4', bytes(FLUSH, pkt('NAK\n'), pkt(bytes(new Uint8Array([4]), 'x')), FLUSH), 'has side-band 4, not 1, 2 or 3'],
    ['no flush after the pack', bytes(FLUSH, pkt('NAK\n'), pkt(bytes(new Uint8Array([1]), pack))), 'ends without the flush-pkt that closes its pack'],
    ['bytes after that flush', bytes(FLUSH, pkt('NAK\n'), FLUSH, pkt('more')), 'goes on after the flush-pkt that closes its pack'],
    ['a shallow line that is not one', bytes(pkt('shallow nope\n'), FLUSH), 'has "shallow nope" where shallow lines belong'],
    ['something else than NAK', bytes(FLUSH, pkt('HELLO\n')), 'has "HELLO" where NAK belongs'],
    ['an ERR line', bytes(pkt('ERR upload-pack: not our ref 1234\n')), 'the server refused: "upload-pack: not our ref 1234"'],
  ])('refuses %s', (_label, answer, reason) => {
    const error = thrown(() => packFromAnswer(answer, options));
    expect(error).toBeInstanceOf(PermanentSourceError);
    expect(error.message).toContain(reason);
  });
});

describe('a remote source against a hostile server', () => {
  const url = 'https://git.test/repo.git';
  const made = oneFileCommit('# Read me\n');
  const advert = advertisement([[made.commit, 'HEAD'], [made.commit, 'refs/heads/main']]);

  it('reads a commit from a pack made by hand', async () => {
    const snapshot = createRemoteGitSource(url, { fetch: scriptedRemote(advert, packAnswer(makePack(made.entries).pack, made.commit)) }).snapshot(made.commit);
    expect(await snapshot.read('README.md', { maxBytes: 100 })).toMatchObject({ status: 'ok', text: '# Read me\n' });
  });

  it('fails permanently when the pack holds another commit than the one asked for', async () => {
    const other = oneFileCommit('another\n');
    const snapshot = createRemoteGitSource(url, { fetch: scriptedRemote(advert, packAnswer(makePack(other.entries).pack, other.commit)) }).snapshot(made.commit);
    expect(await snapshot.read('README.md', { maxBytes: 100 })).toEqual({
      status: 'failed',
      path: 'README.md',
      reason: `fetching ${url} at ${made.commit} failed: the server sent no commit ${made.commit}: it does not exist there, or no branch or tag reaches it`,
      permanent: true,
    });
  });

  it('fails a read permanently when a blob does not hash to the id its tree names', async () => {
    // The tree names "# Read me\n"; the pack carries other bytes in its place.
    const swapped = made.entries.map((entry) => (entry.kind === 3 ? { kind: 3 as const, data: new TextEncoder().encode('# Tampered\n') } : entry));
    const snapshot = createRemoteGitSource(url, { fetch: scriptedRemote(advert, packAnswer(makePack(swapped).pack, made.commit)) }).snapshot(made.commit);
    expect(await snapshot.read('README.md', { maxBytes: 100 })).toMatchObject({
      status: 'failed',
      reason: `the server's pack holds no blob ${made.blob} (no object in it hashes to that id)`,
      permanent: true,
    });
  });

  it('fails permanently on a pack that is not one, naming the fault', async () => {
    const { pack } = makePack(made.entries, { badChecksum: true });
    const snapshot = createRemoteGitSource(url, { fetch: scriptedRemote(advert, packAnswer(pack, made.commit)) }).snapshot(made.commit);
    expect(await snapshot.list('')).toMatchObject({ status: 'failed', reason: expect.stringContaining('the pack the server sent has a trailer that is not the checksum of its contents'), permanent: true });
  });

  it('refuses a SHA-256 repository and an answer that is not git, both permanently', async () => {
    const sha256 = advertisement([[made.commit, 'HEAD']], 'ofs-delta object-format=sha256');
    expect(await createRemoteGitSource(url, { fetch: scriptedRemote(sha256, new Uint8Array()) }).resolve('HEAD')).toMatchObject({
      status: 'failed',
      reason: expect.stringContaining('uses object format "sha256"; only SHA-1 repositories can be read'),
      permanent: true,
    });
    const html = async () => new Response('<html>sign in</html>', { headers: { 'content-type': 'text/html' } });
    expect(await createRemoteGitSource(url, { fetch: html }).resolve('main')).toMatchObject({
      status: 'failed',
      reason: expect.stringContaining(`${url} is not a smart-HTTP git server: it answered with content type "text/html", not application/x-git-upload-pack-advertisement`),
      permanent: true,
    });
  });

  it('refuses a ref listing with a bad name rather than resolving through it', async () => {
    const bad = advertisement([[made.commit, 'HEAD'], [made.commit, 'refs/heads/ma in']]);
    expect(await createRemoteGitSource(url, { fetch: scriptedRemote(bad, new Uint8Array()) }).resolve('HEAD')).toMatchObject({
      status: 'failed',
      reason: expect.stringContaining('names a ref git would refuse: "refs/heads/ma in"'),
      permanent: true,
    });
  });
});

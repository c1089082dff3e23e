import { inflateSync } from 'node:zlib';
import { describe, expect, inject, it } from 'vitest';
import type { FetchLike } from '../../src/sources/git/http-client.ts';
import { OFS_DELTA, readEntryHeader } from '../../src/sources/git/pack-entry.ts';
import { packFromAnswer } from '../../src/sources/git/pack-response.ts';
import { createRemoteGitSource } from '../../src/sources/git/remote-source.ts';
import { DELTA_FILES, deltaFilePath, deltaFileText } from '../support/delta-text.ts';

const base = `http://127.0.0.1:${inject('gitHttpPort')}`;
const fixture = inject('gitHttpFixtures').deltas;

/** The depth of each ofs-delta chain in a pack, walking its entries as git lays them out. */
function ofsChainDepths(pack: Uint8Array): number[] {
  const depthAt = new Map<number, number>();
  let at = 12;
  const count = new DataView(pack.buffer, pack.byteOffset).getUint32(8);
  for (let i = 0; i < count; i++) {
    const header = readEntryHeader(pack, at);
    const { engine } = inflateSync(pack.subarray(at + header.length), { info: true } as never) as unknown as { engine: { bytesWritten: number } };
    depthAt.set(at, header.kind === OFS_DELTA ? (depthAt.get(at - (header.baseDistance ?? 0)) ?? 0) + 1 : 0);
    at += header.length + engine.bytesWritten;
  }
  return [...depthAt.values()].filter((depth) => depth > 0);
}

describe('a commit whose files git stores as delta chains', () => {
  it('reads every file through the ofs-delta chains upload-pack sends', async () => {
    const answers: Uint8Array[] = [];
    const recording: FetchLike = async (url, init) => {
      const response = await fetch(url, init);
      if (init.method !== 'POST') return response;
      const body = new Uint8Array(await response.arrayBuffer());
      answers.push(body);
      return new Response(body, { status: response.status, headers: response.headers });
    };
    const snapshot = createRemoteGitSource(`${base}/deltas.git`, { fetch: recording }).snapshot(fixture.head);
    for (let version = 0; version < DELTA_FILES; version++) {
      expect(await snapshot.read(deltaFilePath(version), { maxBytes: 64 * 1024 })).toMatchObject({ status: 'ok', text: deltaFileText(version) });
    }
    // What was read came through deltas on deltas, not whole objects.
    const [answer] = answers;
    expect(answers).toHaveLength(1);
    const depths = ofsChainDepths(packFromAnswer(answer ?? new Uint8Array(), { deepened: true, sideband: true }));
    expect(depths.length).toBeGreaterThan(DELTA_FILES / 2);
    expect(Math.max(...depths)).toBeGreaterThan(2);
  });
});

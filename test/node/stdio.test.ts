/**
 * cli/stdio: a short-lived command writes stdout and stderr on their descriptors when they are a
 * pipe, a socket or a file, and falls back to Node's stream (a terminal, Windows, or a full
 * non-blocking descriptor) without losing or reordering a byte. The process itself is exercised
 * by test/node/cli (a closed pipe), test/node/command-flags (no `net` loaded) and
 * test/node/cli-hook (the deadline with stdin held open).
 */
import { describe, expect, it } from 'vitest';
import { descriptorWriter, type DescriptorHost } from '../../src/cli/stdio.ts';

interface Fake {
  host: DescriptorHost;
  /** What reached the descriptor, and what reached the stream, in order. */
  descriptor: Buffer[];
  stream: Buffer[];
  opened: number;
  exits: number[];
  open: () => NodeJS.WriteStream;
}

/** A descriptor that takes `chunk` bytes a call, and answers `fail` once it has taken `failAfter`. */
function fake(options: { platform?: string; writable?: boolean; chunk?: number; failAfter?: number; fail?: string } = {}): Fake {
  const state: Fake = {
    descriptor: [],
    stream: [],
    opened: 0,
    exits: [],
    host: {
      platform: options.platform ?? 'linux',
      writable: () => options.writable ?? true,
      writeSync(_fd, bytes, offset, length) {
        const taken = Buffer.concat(state.descriptor).length;
        if (options.failAfter !== undefined && taken >= options.failAfter) throw Object.assign(new Error(options.fail ?? 'EAGAIN'), { code: options.fail ?? 'EAGAIN' });
        const room = options.failAfter === undefined ? length : Math.min(length, options.failAfter - taken);
        const n = Math.min(room, options.chunk ?? length);
        state.descriptor.push(Buffer.from(bytes.subarray(offset, offset + n)));
        return n;
      },
      exit: (code) => void state.exits.push(Number(code)),
    },
    open: () => {
      state.opened++;
      return {
        on: () => undefined,
        write: (chunk: string | Uint8Array) => state.stream.push(Buffer.from(chunk)),
      } as unknown as NodeJS.WriteStream;
    },
  };
  return state;
}

const TEXT = `{"title":"Régles — ${'é'.repeat(40)} 🚀 ${'x'.repeat(1000)}"}\n`;

describe('descriptorWriter', () => {
  it('writes everything on the descriptor, across partial writes, and makes no stream', () => {
    const f = fake({ chunk: 7 });
    const out = descriptorWriter(1, f.open, f.host);
    out.write(TEXT);
    out.write('');
    out.write('end\n');
    expect(Buffer.concat(f.descriptor).toString('utf8')).toBe(`${TEXT}end\n`);
    expect(f.opened).toBe(0);
    expect(out.stream()).toBeUndefined();
  });

  it('sends what a full non-blocking descriptor refused to the stream, bytes intact even inside a character, and keeps to the stream after', () => {
    // 25 bytes in: inside the first "é" run, so the split falls between a character's two bytes.
    const f = fake({ failAfter: 25 });
    const out = descriptorWriter(1, f.open, f.host);
    out.write(TEXT);
    out.write('next\n');
    expect(Buffer.concat(f.descriptor)).toHaveLength(25);
    expect(Buffer.concat([...f.descriptor, ...f.stream]).toString('utf8')).toBe(`${TEXT}next\n`);
    expect(f.opened).toBe(1);
    expect(out.stream()).toBeDefined();
  });

  it('uses the stream from the start for a terminal and on Windows', () => {
    for (const f of [fake({ writable: false }), fake({ platform: 'win32' })]) {
      const out = descriptorWriter(1, f.open, f.host);
      out.write(TEXT);
      expect(out.direct()).toBe(false);
      expect(f.descriptor).toEqual([]);
      expect(Buffer.concat(f.stream).toString('utf8')).toBe(TEXT);
    }
  });

  it('ends the process quietly on a closed pipe, and throws any other failure', () => {
    const closed = fake({ failAfter: 0, fail: 'EPIPE' });
    descriptorWriter(1, closed.open, closed.host).write(TEXT);
    expect(closed.exits).toEqual([0]);
    expect(closed.opened).toBe(0);

    const broken = fake({ failAfter: 0, fail: 'EIO' });
    expect(() => descriptorWriter(1, broken.open, broken.host).write(TEXT)).toThrow('EIO');
  });
});

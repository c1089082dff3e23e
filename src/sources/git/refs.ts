/**
 * @module sources/git/refs
 * Resolves a ref name the way `git rev-parse` does, from loose ref files and `packed-refs`:
 * `<name>`, `refs/<name>`, `refs/tags/<name>`, `refs/heads/<name>`, `refs/remotes/<name>`,
 * `refs/remotes/<name>/HEAD`, following symbolic refs. HEAD and other pseudo refs (ORIG_HEAD,
 * FETCH_HEAD) belong to the working tree's own git directory; every other ref to the common one.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const SHA = /^[0-9a-f]{40}$/;
const MAX_SYMREF_DEPTH = 5;
const LF = 0x0a;

export interface RefDirs {
  /** The working tree's git directory (a linked worktree's own). */
  head: string;
  /** Where shared refs and packed-refs live. */
  common: string;
}

export function resolveRefName(dirs: RefDirs, ref: string): string | undefined {
  let packed: Buffer | undefined;
  const packedRef = (name: string): string | undefined => findPackedRef((packed ??= readPackedRefs(join(dirs.common, 'packed-refs'))), name);
  const lookup = (name: string, depth: number): string | undefined => {
    const own = !name.includes('/') || /^refs\/(bisect|worktree|rewritten)\//.test(name);
    const file = join(own ? dirs.head : dirs.common, name);
    const text = existsSync(file) && statSync(file).isFile() ? readFileSync(file, 'utf8') : undefined;
    if (text !== undefined) {
      const symbolic = /^ref:\s*(\S+)/.exec(text)?.[1];
      if (symbolic !== undefined) return depth < MAX_SYMREF_DEPTH ? lookup(symbolic, depth + 1) : undefined;
      const sha = text.slice(0, 40).toLowerCase();
      return SHA.test(sha) ? sha : undefined;
    }
    return packedRef(name);
  };
  const candidates = ref.startsWith('refs/')
    ? [ref]
    : [ref, `refs/${ref}`, `refs/tags/${ref}`, `refs/heads/${ref}`, `refs/remotes/${ref}`, `refs/remotes/${ref}/HEAD`];
  for (const name of candidates) {
    const found = lookup(name, 0);
    if (found !== undefined) return found;
  }
  return undefined;
}

function readPackedRefs(path: string): Buffer {
  return existsSync(path) ? readFileSync(path) : Buffer.alloc(0);
}

/**
 * One `<sha> <name>` line of packed-refs, found by searching the bytes: a mirror packs tens of
 * thousands of refs (a megabyte; decoding it cost more than the rest of resolving), and a run
 * needs one. `^<sha>` lines (peeled tags) and `#` headers never match.
 */
function findPackedRef(text: Buffer, name: string): string | undefined {
  const line = Buffer.from(` ${name}\n`);
  let at = text.indexOf(line);
  // The last line may lack its newline.
  const last = text.length - (line.length - 1);
  if (at === -1 && last >= 0 && text.subarray(last).equals(line.subarray(0, -1))) at = last;
  if (at < 40 || (at > 40 && text[at - 41] !== LF)) return undefined;
  const sha = text.toString('latin1', at - 40, at);
  return SHA.test(sha) ? sha : undefined;
}

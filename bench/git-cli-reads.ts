/**
 * The baseline the local git source is measured against: the git CLI doing the same reads.
 * `git rev-parse HEAD`, then `git ls-tree` of each chain directory and of `.agents/skills` in
 * parallel, then one `git cat-file --batch` for every AGENTS.md and SKILL.md found.
 */
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { directoryChain } from '../src/providers/rules/chain.ts';
import { gitEnv } from '../test/support/git-fixtures.ts';
import { SKILLS_DIR, type RepoShape } from './repo-shape.ts';

const run = promisify(execFile);

interface LsTreeItem {
  type: string;
  oid: string;
  name: string;
}

/** Returns text by path, like `readThroughSnapshot`. */
export async function readWithGitCli(dir: string, shape: RepoShape): Promise<Map<string, string>> {
  const env = gitEnv();
  const git = async (args: string[]): Promise<string> => (await run('git', args, { cwd: dir, env, maxBuffer: 64 * 1024 * 1024 })).stdout;
  const commit = (await git(['rev-parse', 'HEAD'])).trim();
  const lsTree = async (path: string): Promise<LsTreeItem[]> => parseLsTree(await git(['ls-tree', '-z', path === '' ? commit : `${commit}:${path}`]));

  const chain = directoryChain(shape.cwd);
  const [skills, ...listings] = await Promise.all([lsTree(SKILLS_DIR), ...chain.map(lsTree)]);
  const wanted: Array<{ path: string; object: string }> = [];
  listings.forEach((items, i) => {
    const dir = chain[i] ?? '';
    const rules = items.find((item) => item.name === 'AGENTS.md' && item.type === 'blob');
    if (rules) wanted.push({ path: dir === '' ? 'AGENTS.md' : `${dir}/AGENTS.md`, object: rules.oid });
  });
  for (const item of skills ?? []) {
    if (item.type !== 'tree') continue;
    const path = `${SKILLS_DIR}/${item.name}/SKILL.md`;
    wanted.push({ path, object: `${commit}:${path}` });
  }
  const blobs = await catFileBatch(dir, env, wanted.map((want) => want.object));
  return new Map(wanted.map((want, i) => [want.path, blobs[i] ?? '']));
}

function parseLsTree(out: string): LsTreeItem[] {
  return out
    .split('\0')
    .filter((line) => line !== '')
    .map((line) => {
      const match = /^\d+ (\w+) ([0-9a-f]+)\t(.*)$/s.exec(line);
      if (!match) throw new Error(`unexpected ls-tree line: ${line}`);
      return { type: match[1] ?? '', oid: match[2] ?? '', name: match[3] ?? '' };
    });
}

/** One `git cat-file --batch` process for all objects; answers in request order. */
function catFileBatch(dir: string, env: NodeJS.ProcessEnv, objects: string[]): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', ['cat-file', '--batch'], { cwd: dir, env, stdio: ['pipe', 'pipe', 'inherit'] });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`git cat-file --batch exited with ${code}`));
      try {
        resolve(parseBatch(Buffer.concat(chunks), objects.length));
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
    child.stdin.end(objects.map((object) => `${object}\n`).join(''));
  });
}

/** `<oid> <type> <size>\n<content>\n` per object; a missing one is `<name> missing\n`. */
function parseBatch(out: Buffer, count: number): string[] {
  const texts: string[] = [];
  let at = 0;
  while (texts.length < count) {
    const end = out.indexOf(0x0a, at);
    const header = out.subarray(at, end).toString('utf8');
    const match = /^[0-9a-f]+ blob (\d+)$/.exec(header);
    if (!match) throw new Error(`git cat-file --batch: ${header}`);
    const size = Number(match[1]);
    texts.push(out.subarray(end + 1, end + 1 + size).toString('utf8'));
    at = end + 1 + size + 1;
  }
  return texts;
}

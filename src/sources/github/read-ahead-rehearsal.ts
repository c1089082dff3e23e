/**
 * @module sources/github/read-ahead-rehearsal
 * A repository held in memory, served through the GitHub source's own code as a task's is (Octokit's
 * GraphQL client, the read-ahead's query, its answer taken apart, its texts checked against their
 * blob ids, the source cache in front), with a `fetch` that answers the read-ahead query as GitHub's
 * GraphQL API would. The turn 0 rehearsal reads it (context/turn-rehearsal `rehearseReads`) while a
 * cold isolate's first turn waits on the pull request's files, so that code's first run is not
 * between that answer and the read-ahead, or after the read-ahead's answer (issue 56).
 *
 * The answer is a superset of what any read-ahead query asks: every alias the query declares
 * (`root`, `d0`, `f0`, `w0`...) answered with the entry at its path, nested a level deeper than a
 * walk can ask, every file with its text; the answer's reader takes what its query asked for.
 * Anything but the GraphQL endpoint is answered 404 (a read the plan did not cover fails as an
 * unknown object would) and every request is listed in `requests`. Nothing leaves memory.
 */
import { createCachedLoader, gitBlobId } from '../cached-loader.ts';
import type { KeyValueStore } from '../key-value-store.ts';
import type { RepositorySource } from '../snapshot.ts';
import { tokenAuth } from './auth.ts';
import { MAX_WALK_LEVELS } from './graphql-query.ts';
import { createGitHubSource } from './source.ts';

export const MEMORY_API_URL = 'https://memory.invalid';

/** Git modes as GraphQL gives them, in decimal. */
const FILE_MODE = 0o100644;
const TREE_MODE = 0o040000;

interface Node {
  name: string;
  oid: string;
  /** A file's text and its UTF-8 size; a directory has children instead. */
  text?: string;
  bytes?: number;
  children?: Map<string, Node>;
}

export interface MemoryGitHub {
  /** The GitHub source over the repository, its snapshots cached in a store of their own (a map). */
  source: RepositorySource;
  /** Every request made of its API, `METHOD url`, in order. */
  requests: string[];
}

/** `files`: path → text, at `commit`. Blob ids are real (SHA-1 of the git object), so the texts pass the source's check. */
export async function memoryGitHub(files: Readonly<Record<string, string>>, commit: string): Promise<MemoryGitHub> {
  const root = await treeOf(files);
  const requests: string[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    requests.push(`${request.method} ${request.url}`);
    if (request.method !== 'POST' || request.url !== `${MEMORY_API_URL}/graphql`) return Response.json({ message: 'Not Found' }, { status: 404 });
    const body = (await request.json()) as { variables?: Record<string, unknown> };
    return Response.json({ data: answer(root, commit, body.variables ?? {}) });
  };
  const store = mapStore();
  const source = createGitHubSource({
    owner: 'rehearsal',
    repo: 'memory',
    auth: tokenAuth('rehearsal'),
    baseUrl: MEMORY_API_URL,
    fetch,
    wrapLoader: (loader, scope) => createCachedLoader(loader, store, scope),
  });
  return { source, requests };
}

async function treeOf(files: Readonly<Record<string, string>>): Promise<Node> {
  let trees = 0;
  const tree = (name: string): Node => ({ name, oid: `e${(trees++).toString(16).padStart(39, '0')}`, children: new Map() });
  const root = tree('');
  for (const [path, text] of Object.entries(files)) {
    const parts = path.split('/');
    const name = parts.pop() ?? path;
    let dir = root;
    for (const part of parts) {
      const known = dir.children?.get(part);
      const next = known ?? tree(part);
      if (!known) dir.children?.set(part, next);
      dir = next;
    }
    const bytes = new TextEncoder().encode(text);
    dir.children?.set(name, { name, oid: await gitBlobId(bytes, 'SHA-1'), text, bytes: bytes.byteLength });
  }
  return root;
}

function answer(root: Node, commit: string, variables: Record<string, unknown>): unknown {
  const at: Record<string, unknown> = {
    __typename: 'Commit',
    oid: commit,
    committedDate: '2026-01-01T00:00:00Z',
    authoredDate: '2026-01-01T00:00:00Z',
    commitTree: { oid: root.oid },
    parents: { nodes: [] },
    root: { oid: root.oid, entries: entries(root, 0) },
  };
  for (const [alias, path] of Object.entries(variables)) {
    if (!/^[dfw]\d+$/.test(alias) || typeof path !== 'string') continue;
    let node: Node | undefined = root;
    for (const part of path.split('/')) node = node?.children?.get(part);
    at[alias] = node ? entry(node, 0) : null;
  }
  return { rateLimit: { cost: 1, remaining: 4999, resetAt: '2026-01-01T01:00:00Z' }, repository: { object: at } };
}

function entry(node: Node, level: number): unknown {
  const object = node.children ? (level > MAX_WALK_LEVELS ? {} : { entries: entries(node, level + 1) }) : { oid: node.oid, byteSize: node.bytes, isBinary: false, isTruncated: false, text: node.text };
  return { name: node.name, type: node.children ? 'tree' : 'blob', mode: node.children ? TREE_MODE : FILE_MODE, oid: node.oid, object };
}

function entries(dir: Node, level: number): unknown[] {
  return [...(dir.children?.values() ?? [])].map((child) => entry(child, level));
}

function mapStore(): KeyValueStore {
  const values = new Map<string, string>();
  return {
    get: (key) => Promise.resolve(values.get(key) ?? null),
    put: (key, value) => {
      values.set(key, value);
      return Promise.resolve();
    },
  };
}

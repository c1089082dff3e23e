/**
 * @module test/support/github-graphql
 * The local GitHub API server's GraphQL endpoint: the subset of GitHub's schema the GitHub
 * source queries (Repository.object/ref, Commit.oid/tree/file/committedDate/authoredDate/parents,
 * Tree.entries, Blob, Tag, rateLimit), parsed, validated and executed for real by graphql-js with resolvers over the
 * git repository. A query using a field outside the subset fails validation as it would on a
 * GitHub Enterprise Server that lacks it; `legacy` drops `Commit.file` to play such a server.
 */
import { buildSchema, execute, GraphQLError, parse, validate } from 'graphql';
import type { DocumentNode, GraphQLSchema } from 'graphql';
import type { GitObjects, GitTreeItem } from './git-objects.ts';

const SDL = `
  scalar GitObjectID
  scalar DateTime
  type Query {
    repository(owner: String!, name: String!): Repository
    rateLimit(dryRun: Boolean = false): RateLimit
  }
  type RateLimit { cost: Int! limit: Int! remaining: Int! resetAt: DateTime! used: Int! }
  type Repository {
    nameWithOwner: String!
    object(expression: String, oid: GitObjectID): GitObject
    ref(qualifiedName: String!): Ref
  }
  type Ref { name: String! target: GitObject }
  interface GitObject { oid: GitObjectID! }
  type Commit implements GitObject { oid: GitObjectID! tree: Tree! committedDate: DateTime! authoredDate: DateTime! parents(first: Int, after: String): CommitConnection! FILE }
  type CommitConnection { nodes: [Commit] totalCount: Int! }
  type Tree implements GitObject { oid: GitObjectID! entries: [TreeEntry!] }
  type Blob implements GitObject { oid: GitObjectID! byteSize: Int! isBinary: Boolean isTruncated: Boolean! text: String }
  type Tag implements GitObject { oid: GitObjectID! target: GitObject! }
  type TreeEntry { name: String! path: String mode: Int! type: String! oid: GitObjectID! size: Int! object: GitObject }
`;

const schemas = {
  current: buildSchema(SDL.replace('FILE', 'file(path: String!): TreeEntry')),
  legacy: buildSchema(SDL.replace('FILE', '')),
};

/** The schema the server validates queries against (bench/read-ahead-query times that validation). */
export const GITHUB_GRAPHQL_SCHEMA: GraphQLSchema = schemas.current;

/** GitHub cuts `Blob.text` at this many bytes and says so with `isTruncated`. */
export const BLOB_TEXT_LIMIT = 512_000;

export interface GraphQLRequest {
  query: string;
  variables: Record<string, unknown>;
  schema: 'current' | 'legacy';
  textLimit: number;
  rateLimit: { cost: number; limit: number; remaining: number; resetAt: string; used: number };
}

type Kind = 'commit' | 'tree' | 'blob' | 'tag';
interface GitObjectValue {
  __typename: 'Commit' | 'Tree' | 'Blob' | 'Tag';
  oid: string;
  /** Path of a tree or blob from the commit's root, when it was reached through a commit. */
  path?: string;
}

const TYPENAMES: Record<Kind, GitObjectValue['__typename']> = { commit: 'Commit', tree: 'Tree', blob: 'Blob', tag: 'Tag' };

export function graphqlEndpoint(git: GitObjects, repository: { owner: string; repo: string }) {
  const listings = new Map<string, Promise<GitTreeItem[] | undefined>>();
  const list = (treeOid: string) => {
    let listing = listings.get(treeOid);
    if (!listing) listings.set(treeOid, (listing = git.tree(treeOid, false).then((tree) => tree?.items)));
    return listing;
  };
  const entry = (item: GitTreeItem, dir: string): { name: string; path: string; mode: number; type: string; oid: string; size: number; kind: Kind | undefined } => ({
    name: item.path,
    path: dir === '' ? item.path : `${dir}/${item.path}`,
    mode: parseInt(item.mode, 8),
    type: item.type,
    oid: item.sha,
    size: item.size ?? 0,
    kind: item.type === 'tree' ? 'tree' : item.type === 'blob' ? 'blob' : undefined,
  });
  type Entry = ReturnType<typeof entry>;
  // Objects are immutable by id: remembering them keeps a query to a few git processes.
  const rootTrees = new Map<string, Promise<string | undefined>>();
  /**
   * The commit's root tree, with the listing of every tree under it remembered from one recursive
   * `ls-tree`: a read-ahead walks dozens of directories, and a git process each took seconds on a
   * loaded machine.
   */
  const rootTree = (commitOid: string) => {
    let tree = rootTrees.get(commitOid);
    if (!tree) rootTrees.set(commitOid, (tree = git.tree(commitOid, true).then((found) => found && rememberListings(found.sha, found.items))));
    return tree;
  };
  const rememberListings = (root: string, items: GitTreeItem[]): string => {
    const oidOf = new Map<string, string>([['', root]]);
    const children = new Map<string, GitTreeItem[]>([['', []]]);
    for (const item of items) {
      const slash = item.path.lastIndexOf('/');
      const [parent, name] = slash < 0 ? ['', item.path] : [item.path.slice(0, slash), item.path.slice(slash + 1)];
      const siblings = children.get(parent) ?? [];
      siblings.push({ ...item, path: name });
      children.set(parent, siblings);
      if (item.type === 'tree') {
        oidOf.set(item.path, item.sha);
        if (!children.has(item.path)) children.set(item.path, []);
      }
    }
    for (const [dir, oid] of oidOf) if (!listings.has(oid)) listings.set(oid, Promise.resolve(children.get(dir) ?? []));
    return root;
  };

  /**
   * `<commit>:<path>` walked through the remembered listings (one `ls-tree` per tree, ever), not
   * two git processes per object: a read-ahead names hundreds of paths at one commit, which on a
   * loaded machine took longer than an assembly may. Anything else is asked of git.
   */
  const objectAt = async (expression: string): Promise<{ oid: string; type: Kind } | undefined> => {
    const at = /^([0-9a-f]{40}):(.*)$/s.exec(expression);
    if (!at) return git.objectOf(expression);
    const [, commit = '', path = ''] = at;
    const root = await rootTree(commit);
    if (!root) return git.objectOf(expression);
    let found: { oid: string; type: Kind } = { oid: root, type: 'tree' };
    for (const part of path.split('/').filter((name) => name !== '')) {
      if (found.type !== 'tree') return undefined;
      const items: GitTreeItem[] | undefined = await list(found.oid);
      const item = items?.find((candidate) => candidate.path === part);
      if (!item || (item.type !== 'tree' && item.type !== 'blob')) return undefined;
      found = { oid: item.sha, type: item.type };
    }
    return found;
  };

  const resolvers = (request: GraphQLRequest): Record<string, unknown> => ({
    rateLimit: () => request.rateLimit,
    repository: ({ owner, name }: { owner: string; name: string }) => {
      if (owner.toLowerCase() !== repository.owner.toLowerCase() || name.toLowerCase() !== repository.repo.toLowerCase()) return null;
      return {
        nameWithOwner: `${repository.owner}/${repository.repo}`,
        object: async ({ expression, oid }: { expression?: string; oid?: string }) => {
          const found = await objectAt(expression ?? oid ?? '');
          return found ? objectValue(request.textLimit, found.oid, found.type) : null;
        },
        ref: async ({ qualifiedName }: { qualifiedName: string }) => {
          const found = await git.objectOf(qualifiedName.startsWith('refs/') ? qualifiedName : `refs/heads/${qualifiedName}`);
          return found ? { name: qualifiedName.replace(/^refs\/(heads|tags)\//, ''), target: objectValue(request.textLimit, found.oid, found.type) } : null;
        },
      };
    },
  });

  const objectValue = (limit: number, oid: string, kind: Kind, path?: string): Record<string, unknown> => {
    const base = { __typename: TYPENAMES[kind], oid, ...(path === undefined ? {} : { path }) } satisfies GitObjectValue;
    switch (kind) {
      case 'commit': {
        const object = git.commit(oid);
        const parents = async () => (await object)?.parents ?? [];
        return {
          ...base,
          committedDate: async () => (await object)?.committer.date,
          authoredDate: async () => (await object)?.author.date,
          parents: async ({ first }: { first?: number }) => {
            const all = await parents();
            return { totalCount: all.length, nodes: all.slice(0, first ?? all.length).map((parent) => objectValue(limit, parent, 'commit')) };
          },
          tree: async () => {
            const tree = await rootTree(oid);
            return tree ? objectValue(limit, tree, 'tree', '') : null;
          },
          file: async ({ path: wanted }: { path: string }) => {
            const parts = wanted.split('/').filter((part) => part !== '');
            if (parts.length === 0) return null;
            let dir = '';
            let treeOid = await rootTree(oid);
            for (const [i, part] of parts.entries()) {
              const items = treeOid ? await list(treeOid) : undefined;
              const item = items?.find((candidate) => candidate.path === part);
              if (!item) return null;
              if (i === parts.length - 1) return entryValue(limit, entry(item, dir));
              if (item.type !== 'tree') return null;
              dir = dir === '' ? part : `${dir}/${part}`;
              treeOid = item.sha;
            }
            return null;
          },
        };
      }
      case 'tree':
        return { ...base, entries: async () => (await list(oid))?.map((item) => entryValue(limit, entry(item, path ?? ''))) ?? null };
      case 'tag':
        return { ...base, target: async () => {
          const target = await git.tagTarget(oid);
          const found = target ? await git.objectOf(target) : undefined;
          return found ? objectValue(limit, found.oid, found.type) : null;
        } };
      case 'blob':
        return { ...base, ...blobFields(limit, oid) };
    }
  };

  const blobFields = (limit: number, oid: string) => {
    const bytes = git.blob(oid);
    return {
      byteSize: async () => (await bytes)?.length ?? 0,
      isBinary: async () => isBinary(await bytes),
      isTruncated: async () => ((await bytes)?.length ?? 0) > limit,
      text: async () => {
        const data = await bytes;
        if (!data || isBinary(data)) return null;
        return new TextDecoder('utf-8').decode(data.subarray(0, limit));
      },
    };
  };

  const entryValue = (limit: number, value: Entry) => ({
    ...value,
    // A submodule's commit is not in this repository: GitHub answers null for its object.
    object: () => (value.kind ? objectValue(limit, value.oid, value.kind, value.path) : null),
  });

  return async (request: GraphQLRequest): Promise<unknown> => {
    const schema: GraphQLSchema = schemas[request.schema];
    const checked = checkedQuery(schema, request.query);
    const result = 'errors' in checked ? { errors: checked.errors } : await execute({ schema, document: checked.document, variableValues: request.variables, rootValue: resolvers(request) });
    return JSON.parse(JSON.stringify(result));
  };
}

/**
 * A query parsed and validated once per schema and text, as `graphql()` would each time: a client
 * sends the same read-ahead query again and again, and validating one of a few hundred fields took
 * the server most of a second on a loaded machine (bench/first-turn), time no client spends.
 */
const checkedQueries = new WeakMap<GraphQLSchema, Map<string, { document: DocumentNode } | { errors: readonly GraphQLError[] }>>();
const MAX_CHECKED_QUERIES = 256;

function checkedQuery(schema: GraphQLSchema, source: string): { document: DocumentNode } | { errors: readonly GraphQLError[] } {
  let known = checkedQueries.get(schema);
  if (!known) checkedQueries.set(schema, (known = new Map()));
  const found = known.get(source);
  if (found) return found;
  let checked: { document: DocumentNode } | { errors: readonly GraphQLError[] };
  try {
    const document = parse(source);
    const errors = validate(schema, document);
    checked = errors.length > 0 ? { errors } : { document };
  } catch (error) {
    checked = { errors: [error instanceof GraphQLError ? error : new GraphQLError(String(error))] };
  }
  if (known.size >= MAX_CHECKED_QUERIES) known.clear();
  known.set(source, checked);
  return checked;
}

/** git's own test: a NUL in the first 8000 bytes. */
function isBinary(bytes: Buffer | undefined): boolean {
  return bytes !== undefined && bytes.subarray(0, 8000).includes(0);
}

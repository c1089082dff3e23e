/**
 * @module sources/github/graphql-query
 * One GraphQL query that resolves a revision and reads a plan at that commit: the listings of
 * planned directories, planned files with their text, and walks nested level by level, all
 * under one Commit object, so every answer is of the same commit even if the branch moves.
 *
 * The query text depends only on the plan's shape (how many directories, files and walks, how
 * deep): aliases are ours (`d0`, `f0`, `w0`), and every path, the revision, owner and name are
 * variables. Nothing a user or repository wrote is ever spliced into the text.
 *
 * What each alias selects is a named fragment (`...Listing`, `...File`, a walk's shape), written
 * once: a pull request's plan over 20 packages has some 350 aliases, and with each selection
 * spelled out the text was 69 KB, which a GraphQL server parses and validates on every request
 * (graphql-js: 34 ms, against 12 with the fragments; docs/benchmarks, 2026-12-07 22:00).
 */
import type { ReadPlan } from '../read-plan.ts';

/** Levels a walk is nested below its prefix in one query; deeper directories are listed later. */
export const MAX_WALK_LEVELS = 4;

export interface ReadAheadQuery {
  query: string;
  variables: Record<string, string>;
  /** What each alias reads, to take the answer apart. */
  aliases: {
    root: boolean;
    dirs: Array<{ alias: string; path: string }>;
    files: Array<{ alias: string; path: string }>;
    walks: Array<{ alias: string; prefix: string; levels: number; textFrom: number | undefined; read: readonly string[]; readSuffixes: readonly string[] }>;
  };
}

const ENTRY = 'name type mode oid';
/** A listed file's size, as the REST tree gives it: listings say how big a file is without reading it. */
const SIZE = '... on Blob { byteSize }';
const TEXT = '... on Blob { oid byteSize isBinary isTruncated text }';
/** The commit's own facts (never its message), so no REST request is needed for them. */
const COMMIT_FACTS = 'committedDate authoredDate commitTree: tree { oid } parents(first: 100) { nodes { oid } }';

/**
 * @example
 * const { query, variables } = readAheadQuery({ owner: 'acme', name: 'widgets', rev: 'main', plan });
 * await octokit.graphql(query, variables);
 */
export function readAheadQuery(input: { owner: string; name: string; rev: string; plan: ReadPlan }): ReadAheadQuery {
  const { plan } = input;
  const variables: Record<string, string> = { owner: input.owner, name: input.name, rev: input.rev };
  const declared: string[] = ['$owner: String!', '$name: String!', '$rev: String!'];
  const fields: string[] = ['oid', COMMIT_FACTS];
  const aliases: ReadAheadQuery['aliases'] = { root: false, dirs: [], files: [], walks: [] };
  const variable = (alias: string, value: string): string => {
    variables[alias] = value;
    declared.push(`$${alias}: String!`);
    return `$${alias}`;
  };

  // Each selection once, as a fragment on TreeEntry (what `file(path:)` answers), named by shape.
  const fragments = new Map<string, string>();
  const spread = (name: string, selection: () => string): string => {
    if (!fragments.has(name)) fragments.set(name, `fragment ${name} on TreeEntry { ${selection()} }`);
    return `{ ...${name} }`;
  };

  const walkPrefixes = new Set(plan.walks.map((walk) => walk.prefix));
  const listed = plan.dirs.filter((dir) => !walkPrefixes.has(dir));
  const rootWalks = plan.walks.filter((walk) => walk.prefix === '');
  if (listed.includes('') || rootWalks.length > 0) {
    aliases.root = true;
    const levels = Math.max(0, ...rootWalks.map((walk) => levelsOf(walk)));
    const textFrom = textLevel(rootWalks);
    fields.push(`root: tree { oid entries { ${nested(levels, textFrom, 0)} } }`);
    for (const walk of rootWalks) aliases.walks.push({ alias: 'root', prefix: '', levels, textFrom, read: walk.read, readSuffixes: walk.readSuffixes ?? [] });
  }
  listed.filter((dir) => dir !== '').forEach((path, i) => {
    const alias = `d${i}`;
    aliases.dirs.push({ alias, path });
    fields.push(`${alias}: file(path: ${variable(alias, path)}) ${spread('Listing', () => `${ENTRY} object { ... on Tree { entries { ${ENTRY} object { ${SIZE} } } } }`)}`);
  });
  plan.files.forEach((path, i) => {
    const alias = `f${i}`;
    aliases.files.push({ alias, path });
    fields.push(`${alias}: file(path: ${variable(alias, path)}) ${spread('File', () => `${ENTRY} object { ${TEXT} }`)}`);
  });
  const byPrefix = new Map<string, ReadPlan['walks'][number][]>();
  for (const walk of plan.walks) if (walk.prefix !== '') byPrefix.set(walk.prefix, [...(byPrefix.get(walk.prefix) ?? []), walk]);
  [...byPrefix].forEach(([prefix, walks], i) => {
    const alias = `w${i}`;
    const levels = Math.max(...walks.map((walk) => levelsOf(walk)));
    const textFrom = textLevel(walks);
    for (const walk of walks) aliases.walks.push({ alias, prefix, levels, textFrom, read: walk.read, readSuffixes: walk.readSuffixes ?? [] });
    const shape = `Walk${levels}${textFrom === undefined ? '' : `Text${textFrom}`}`;
    fields.push(`${alias}: file(path: ${variable(alias, prefix)}) ${spread(shape, () => `${ENTRY} object { ... on Tree { entries { ${nested(levels, textFrom, 0)} } } }`)}`);
  });

  const query = [
    `query GroundworkReadAhead(${declared.join(', ')}) {`,
    '  rateLimit { cost remaining resetAt }',
    '  repository(owner: $owner, name: $name) {',
    '    object(expression: $rev) { __typename ... on Commit { ...At } ... on Tag { target { __typename ... on Commit { ...At } } } }',
    '  }',
    '}',
    `fragment At on Commit { ${fields.join(' ')} }`,
    ...fragments.values(),
  ].join('\n');
  return { query, variables, aliases };
}

function levelsOf(walk: ReadPlan['walks'][number]): number {
  return Math.min(walk.depth, MAX_WALK_LEVELS);
}

/**
 * From which level file texts come along. An unbounded walk (`**`) would drag in the text of
 * every file of the subtree, so its files are read afterwards, only those that are wanted.
 */
function textLevel(walks: readonly ReadPlan['walks'][number][]): number | undefined {
  const bounded = walks.filter((walk) => !walk.unbounded && (walk.read.length > 0 || (walk.readSuffixes ?? []).length > 0) && walk.readFrom <= MAX_WALK_LEVELS);
  return bounded.length === 0 ? undefined : Math.min(...bounded.map((walk) => walk.readFrom));
}

/** Entries of level `level`, with their subtrees down to `levels` and texts from `textFrom`. */
function nested(levels: number, textFrom: number | undefined, level: number): string {
  const parts: string[] = [];
  if (level < levels) parts.push(`... on Tree { entries { ${nested(levels, textFrom, level + 1)} } }`);
  parts.push(textFrom !== undefined && level >= textFrom ? TEXT : SIZE);
  return `${ENTRY} object { ${parts.join(' ')} }`;
}

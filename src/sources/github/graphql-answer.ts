/**
 * @module sources/github/graphql-answer
 * Takes a read-ahead answer apart into the commit, the part of its tree it showed and the file
 * texts that came along. Everything is parsed: names that are not one clean path segment are
 * dropped as the REST path drops them, and texts are only candidates until their bytes hash
 * to the blob id (see graphql-read-ahead).
 */
import * as z from 'zod';
import { buildSchemas, lazySchema } from '../../lib/lazy-schema.ts';
import { isoFromText } from '../commit-info.ts';
import type { PartialTree } from '../partial-tree.ts';
import { isPlainObject } from '../../lib/plain-object.ts';
import { normalisePath } from '../paths.ts';
import { COMMIT_SHA } from '../snapshot.ts';
import type { CommitInfo, TreeEntryKind } from '../snapshot.ts';
import type { FlatTreeEntry } from '../tree-loader.ts';
import type { ReadAheadQuery } from './graphql-query.ts';

interface RawObject {
  entries?: RawEntry[] | null | undefined;
  oid?: string | undefined;
  byteSize?: number | undefined;
  isBinary?: boolean | null | undefined;
  isTruncated?: boolean | undefined;
  text?: string | null | undefined;
}
interface RawEntry {
  name: string;
  type: string;
  mode: number;
  oid: string;
  object?: RawObject | null | undefined;
}

export const RawEntrySchema: z.ZodType<RawEntry> = z.lazy(() =>
  z.object({
    name: z.string(),
    type: z.string(),
    mode: z.number().int(),
    oid: z.string(),
    object: z
      .object({
        entries: z.array(RawEntrySchema).nullish(),
        oid: z.string().optional(),
        byteSize: z.number().int().nonnegative().optional(),
        isBinary: z.boolean().nullish(),
        isTruncated: z.boolean().optional(),
        text: z.string().nullish(),
      })
      .nullish(),
  }),
);
const RootSchema = lazySchema(() => z.object({ oid: z.string(), entries: z.array(RawEntrySchema).nullish() }));
export const CommitSchema = lazySchema(() => z.object({ __typename: z.literal('Commit'), oid: z.string().regex(COMMIT_SHA) }).catchall(z.unknown()));
const ObjectId = lazySchema(() => z.string().regex(/^[0-9a-f]{40}$|^[0-9a-f]{64}$/));
const CommitFactsSchema = lazySchema(() => z.object({
  committedDate: z.string(),
  authoredDate: z.string(),
  commitTree: z.object({ oid: ObjectId }),
  parents: z.object({ nodes: z.array(z.object({ oid: ObjectId })) }),
}));
export const AnswerSchema = lazySchema(() => z.object({
  rateLimit: z.object({ cost: z.number(), remaining: z.number(), resetAt: z.string() }).nullish(),
  repository: z
    .object({
      object: z
        .object({ __typename: z.string(), target: z.object({ __typename: z.string() }).catchall(z.unknown()).nullish() })
        .catchall(z.unknown())
        .nullable(),
    })
    .nullable(),
}));

export interface TextCandidate {
  oid: string;
  byteSize: number;
  text: string;
}

export type ParsedAnswer =
  | { status: 'ok'; commit: string; tree: PartialTree; texts: TextCandidate[]; rateLimit?: { cost: number; remaining: number; resetAt: string } }
  | { status: 'missing'; rateLimit?: { cost: number; remaining: number; resetAt: string } }
  | { status: 'unusable'; reason: string };

/** Git modes as GraphQL gives them, in decimal. */
const SYMLINK_MODE = 0o120000;

/**
 * Builds the checks a read-ahead's answer goes through (once per isolate) while the query is
 * still on its way, so parsing the answer does not wait for them. Nothing is checked here.
 */
export function buildReadAheadChecks(): void {
  buildSchemas(AnswerSchema, CommitSchema, RootSchema, CommitFactsSchema, ObjectId);
  if (RawEntrySchema instanceof z.ZodLazy) RawEntrySchema.unwrap();
}

export function parseReadAhead(data: unknown, aliases: ReadAheadQuery['aliases']): ParsedAnswer {
  const answer = answerByHand(data) ?? AnswerSchema.safeParse(data);
  if (!answer.success) return { status: 'unusable', reason: `the GraphQL answer was not understood: ${answer.error.issues[0]?.message ?? ''}` };
  const rateLimit = answer.data.rateLimit ?? undefined;
  const found = answer.data.repository?.object;
  const target = found?.__typename === 'Tag' ? found.target : found;
  const commit = commitByHand(target) ?? CommitSchema.safeParse(target);
  if (!commit.success) return rateLimit ? { status: 'missing', rateLimit } : { status: 'missing' };
  const at = commit.data;

  const facts = commitFacts(at);
  const tree: PartialTree = { dirs: [], entries: [], absent: [], ...(facts ? { commit: facts } : {}) };
  const texts: TextCandidate[] = [];
  const keepText = (object: RawObject | null | undefined) => {
    if (object?.oid && object.text != null && object.byteSize !== undefined && object.isBinary !== true && object.isTruncated === false) {
      texts.push({ oid: object.oid, byteSize: object.byteSize, text: object.text });
    }
  };
  const listing = (dir: string, raw: RawEntry[], level: number, walk?: { levels: number; read: readonly string[]; readSuffixes: readonly string[] }): void => {
    const entries: FlatTreeEntry[] = [];
    for (const item of raw) {
      const entry = flatEntry(dir, item);
      if (!entry) continue;
      entries.push(entry);
      if (!walk) continue;
      if (entry.kind === 'dir' && level < walk.levels && item.object?.entries) listing(entry.path, item.object.entries, level + 1, walk);
      if (walk.read.includes(item.name) || walk.readSuffixes.some((suffix) => item.name.endsWith(suffix))) keepText(item.object);
    }
    if (!tree.dirs.some((known) => known.path === dir)) tree.dirs.push({ path: dir, entries });
  };

  if (aliases.root) {
    const root = RootSchema.safeParse(at['root']);
    if (root.success && root.data.entries) {
      const walks = aliases.walks.filter((walk) => walk.alias === 'root');
      const levels = Math.max(0, ...walks.map((walk) => walk.levels));
      listing('', root.data.entries, 0, walks.length > 0 ? { levels, read: walks.flatMap((walk) => walk.read), readSuffixes: walks.flatMap((walk) => walk.readSuffixes) } : undefined);
    }
  }
  for (const { alias, path } of aliases.dirs) {
    const raw = byAlias(at, alias);
    if (raw === null) tree.absent.push(path);
    else if (raw?.object?.entries) listing(path, raw.object.entries, 0);
    else if (raw) pushEntry(tree, path, raw);
  }
  for (const { alias, path } of aliases.files) {
    const raw = byAlias(at, alias);
    if (raw === null) tree.absent.push(path);
    else if (raw && pushEntry(tree, path, raw)) keepText(raw.object);
  }
  for (const { alias, prefix, levels, read, readSuffixes } of aliases.walks) {
    if (alias === 'root') continue;
    const raw = byAlias(at, alias);
    if (raw === null) tree.absent.push(prefix);
    else if (raw?.object?.entries) listing(prefix, raw.object.entries, 0, { levels, read, readSuffixes });
    else if (raw) pushEntry(tree, prefix, raw);
  }
  return { status: 'ok', commit: at.oid, tree, texts, ...(rateLimit ? { rateLimit } : {}) };
}

/** The commit's dates, tree and parents; undefined when the answer lacks them (REST reads them then). */
function commitFacts(at: { oid: string } & Record<string, unknown>): CommitInfo | undefined {
  const parsed = CommitFactsSchema.safeParse(at);
  if (!parsed.success) return undefined;
  try {
    const { committedDate, authoredDate, commitTree, parents } = parsed.data;
    return { commit: at.oid, tree: commitTree.oid, parents: parents.nodes.map((parent) => parent.oid), committedAt: isoFromText(committedDate), authoredAt: isoFromText(authoredDate) };
  } catch {
    return undefined;
  }
}

/** The entry under an alias; null when GitHub answered null (the path is not there). */
function byAlias(at: Record<string, unknown>, alias: string): RawEntry | null | undefined {
  const value = at[alias];
  if (value === null) return null;
  if (rawEntryByHand(value)) return value;
  const parsed = RawEntrySchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/*
 * The answer read by hand before its schemas: a pull request's read-ahead holds some 350 aliases
 * and hundreds of entries, and zod's parse walked each entry and copied the commit's every alias
 * twice (its schemas keep unknown keys) after GitHub's last answer, where a cold turn waits
 * (issue 56). What is taken here is read as the schemas' output would be: the fields the code
 * reads hold the same values (the schemas transform nothing); only plain objects and arrays are
 * taken, and anything else is left to the schemas, which accept it or say why not. They never
 * take more: test/sources/graphql-answer-by-hand holds them to the schemas over generated answers.
 */

/** Deeper than any walk the query asks for: what is deeper is the schema's. */
const MAX_HAND_DEPTH = 16;

/** An entry as RawEntrySchema takes it, or false (the schema then decides). */
export function rawEntryByHand(value: unknown, depth = 0): value is RawEntry {
  if (depth > MAX_HAND_DEPTH || !isPlainObject(value)) return false;
  if (typeof value['name'] !== 'string' || typeof value['type'] !== 'string' || !Number.isSafeInteger(value['mode']) || typeof value['oid'] !== 'string') return false;
  const object = value['object'];
  if (object === undefined || object === null) return true;
  if (!isPlainObject(object)) return false;
  const { entries, oid, byteSize, isBinary, isTruncated, text } = object;
  if (entries !== undefined && entries !== null && !(Array.isArray(entries) && entries.every((entry) => rawEntryByHand(entry, depth + 1)))) return false;
  return (
    (oid === undefined || typeof oid === 'string') &&
    (byteSize === undefined || (Number.isSafeInteger(byteSize) && (byteSize as number) >= 0)) &&
    (isBinary === undefined || isBinary === null || typeof isBinary === 'boolean') &&
    (isTruncated === undefined || typeof isTruncated === 'boolean') &&
    (text === undefined || text === null || typeof text === 'string')
  );
}

type AnswerOutput = z.output<typeof AnswerSchema>;

/** The answer as AnswerSchema's success would give it, or undefined (the schema then decides). */
export function answerByHand(data: unknown): { success: true; data: AnswerOutput } | undefined {
  if (!isPlainObject(data)) return undefined;
  const limit = data['rateLimit'];
  let rateLimit: AnswerOutput['rateLimit'];
  if (limit === null || limit === undefined) rateLimit = limit;
  else if (isPlainObject(limit) && isNumber(limit['cost']) && isNumber(limit['remaining']) && typeof limit['resetAt'] === 'string') rateLimit = { cost: limit['cost'], remaining: limit['remaining'], resetAt: limit['resetAt'] };
  else return undefined;
  const repository = data['repository'];
  if (repository === null) return { success: true, data: { ...('rateLimit' in data ? { rateLimit } : {}), repository: null } };
  // Absent keys read as undefined, which the schemas refuse here too.
  if (!isPlainObject(repository)) return undefined;
  const object = repository['object'];
  if (object !== null) {
    if (!isPlainObject(object) || typeof object['__typename'] !== 'string') return undefined;
    const target = object['target'];
    if (target !== undefined && target !== null && !(isPlainObject(target) && typeof target['__typename'] === 'string')) return undefined;
  }
  return { success: true, data: { ...('rateLimit' in data ? { rateLimit } : {}), repository: { object: object as NonNullable<AnswerOutput['repository']>['object'] } } };
}

/** The commit as CommitSchema's success would give it (its every alias, kept), or undefined. */
export function commitByHand(target: unknown): { success: true; data: z.output<typeof CommitSchema> } | undefined {
  if (!isPlainObject(target) || target['__typename'] !== 'Commit' || typeof target['oid'] !== 'string' || !COMMIT_SHA.test(target['oid'])) return undefined;
  return { success: true, data: target as z.output<typeof CommitSchema> };
}

const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

function pushEntry(tree: PartialTree, path: string, raw: RawEntry): boolean {
  const kind = kindOf(raw);
  if (!kind) return false;
  tree.entries.push({ path, kind, oid: raw.oid, ...sizeOf(kind, raw) });
  return true;
}

function flatEntry(dir: string, raw: RawEntry): FlatTreeEntry | undefined {
  const kind = kindOf(raw);
  const path = dir === '' ? raw.name : `${dir}/${raw.name}`;
  const normal = normalisePath(path);
  // Git never stores `..`, empty or slashed names; an entry that has them is not trusted into the index.
  if (!kind || raw.name.includes('/') || !normal.ok || normal.path !== path) return undefined;
  return { path, kind, oid: raw.oid, ...sizeOf(kind, raw) };
}

/** A file's or link's blob size, as the REST tree lists it; nothing for directories and submodules. */
function sizeOf(kind: TreeEntryKind, raw: RawEntry): { size?: number } {
  const size = raw.object?.byteSize;
  return (kind === 'file' || kind === 'symlink') && size !== undefined ? { size } : {};
}

function kindOf(raw: RawEntry): TreeEntryKind | undefined {
  if (raw.type === 'tree') return 'dir';
  if (raw.type === 'commit') return 'submodule';
  if (raw.type !== 'blob') return undefined;
  return raw.mode === SYMLINK_MODE ? 'symlink' : 'file';
}

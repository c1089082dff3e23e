/**
 * @module sources/commit-info
 * One form for commit dates whichever backend read them: ISO 8601 in UTC, whole seconds. Git
 * stores seconds and an offset; GitHub answers ISO text with its own offset. The same commit
 * must give the same bytes from every source, or a digest would change with the backend.
 */
import * as z from 'zod';
import { lazySchema } from '../lib/lazy-schema.ts';
import { COMMIT_SHA } from './snapshot.ts';
import type { CommitInfo } from './snapshot.ts';

const ISO_SECONDS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

export const CommitInfoSchema = lazySchema(() => z.object({
  commit: z.string().regex(COMMIT_SHA),
  tree: z.string().regex(/^[0-9a-f]{40}$|^[0-9a-f]{64}$/),
  parents: z.array(z.string().regex(/^[0-9a-f]{40}$|^[0-9a-f]{64}$/)),
  committedAt: z.string().regex(ISO_SECONDS),
  authoredAt: z.string().regex(ISO_SECONDS),
}) satisfies z.ZodType<CommitInfo>);

/**
 * Seconds since the epoch (git's own form) as ISO 8601 UTC: `toISOString`'s text without the
 * milliseconds. Written from the UTC fields for the years it writes with four digits, because
 * V8's `toISOString` looks up the local time zone first (ICU reads /etc/localtime and builds the
 * zone: about 1 ms of a CLI run or session hook, which print no local time; issue 56). Any other
 * year, or no date at all, goes to `toISOString` itself (`+012345-…`, or its RangeError).
 */
export function isoFromEpochSeconds(seconds: number): string {
  const date = new Date(seconds * 1000);
  const year = date.getUTCFullYear();
  if (!(year >= 0 && year <= 9999)) return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
  const two = (n: number) => String(n).padStart(2, '0');
  return `${String(year).padStart(4, '0')}-${two(date.getUTCMonth() + 1)}-${two(date.getUTCDate())}T${two(date.getUTCHours())}:${two(date.getUTCMinutes())}:${two(date.getUTCSeconds())}Z`;
}

/** An ISO 8601 timestamp with any offset, as ISO 8601 UTC; throws on text that is not a date. */
export function isoFromText(text: string): string {
  const time = Date.parse(text);
  if (Number.isNaN(time)) throw new Error(`not a date: ${JSON.stringify(text.slice(0, 40))}`);
  return isoFromEpochSeconds(Math.floor(time / 1000));
}

/**
 * The facts of a raw commit object (`tree …`, `parent …`, `author … <ts> <tz>`, `committer …`,
 * a blank line, the message). Only the headers are read; the message never is.
 */
export function parseCommitObject(commit: string, text: string): CommitInfo {
  const end = text.indexOf('\n\n');
  const headers = (end < 0 ? text : text.slice(0, end)).split('\n');
  const values = (name: string) => headers.filter((line) => line.startsWith(`${name} `)).map((line) => line.slice(name.length + 1));
  const time = (name: string): string => {
    const seconds = /\s(\d+) [+-]\d{4}$/.exec(values(name)[0] ?? '')?.[1];
    if (seconds === undefined) throw new Error(`commit ${commit} has no ${name} time`);
    return isoFromEpochSeconds(Number(seconds));
  };
  const [tree] = values('tree');
  if (tree === undefined) throw new Error(`commit ${commit} has no tree`);
  return { commit, tree, parents: values('parent'), committedAt: time('committer'), authoredAt: time('author') };
}

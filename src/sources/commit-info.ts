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

/** Seconds since the epoch (git's own form) as ISO 8601 UTC. */
export function isoFromEpochSeconds(seconds: number): string {
  return new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
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

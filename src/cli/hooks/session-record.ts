/**
 * @module cli/hooks/session-record
 * What a session's context was read at, kept between hooks: the session-start hook writes it, the
 * prompt hook compares the repository with it and writes what it told the model. One small JSON
 * file per session and repository in `$XDG_STATE_HOME/groundwork/sessions`
 * (`~/.local/state/groundwork/sessions`), or `GROUNDWORK_STATE_DIR`; at most 250, and a write past
 * that leaves the newest 200.
 *
 * Like the code cache (cli/code-cache), it is read only from a directory this user owns that no one
 * else may write to, only a regular file is opened (never a FIFO, which would block), and what is
 * read is parsed with its schema: a record that is missing, foreign or damaged is no record, and a
 * write that fails is ignored. A hook never fails over its bookkeeping.
 */
import { createHash } from 'node:crypto';
import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readdirSync, readSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import * as z from 'zod';
import { lazySchema } from '../../lib/lazy-schema.ts';

const Sha = () => z.string().regex(/^(?:[0-9a-f]{40}|[0-9a-f]{64})$/);

export const SessionRecordSchema = lazySchema(() =>
  z.object({
    root: z.string().min(1).max(4_096),
    /** The commit the session's context was assembled at. */
    commit: Sha(),
    /** The commit the model was last told about (the pin, or where a prompt hook said HEAD moved to). */
    told: Sha(),
    /** The session's working directory in the repository (`''`: the root), whose rule set the prompt hook compares. */
    cwd: z.string().max(4_096).optional(),
    /** The branch checked out when it was told; absent when HEAD was detached. */
    branch: z.string().min(1).max(256).optional(),
    /** The repository files the context held, as freshness tracks them. */
    sources: z
      .array(z.object({ provider: z.string().max(64), kind: z.enum(['file', 'skills-index']), title: z.string().max(1_000), path: z.string().max(4_096), revision: Sha(), blob: Sha().optional() }))
      .max(2_000),
  }),
);
export type SessionRecord = z.infer<typeof SessionRecordSchema>;

const MAX_RECORD_BYTES = 512 * 1024;
const KEPT = 200;
/**
 * Records are dated (a stat each) only when there are more than this: every new session's hook
 * writes one, so a directory that was pruned to exactly KEPT would be dated again on every new
 * session (200 stats: 10-16 ms of a cold hook, issue 56); past KEPT by 50, once in 50 sessions.
 */
const PRUNE_PAST = 250;

export interface RecordStore {
  read(sessionId: string, root: string): SessionRecord | undefined;
  /** True when it was written. */
  write(sessionId: string, record: SessionRecord): boolean;
}

export function recordStore(env: Readonly<Record<string, string | undefined>> = process.env): RecordStore {
  const dir = env['GROUNDWORK_STATE_DIR']?.trim() || join(env['XDG_STATE_HOME']?.trim() || join(homedir(), '.local', 'state'), 'groundwork', 'sessions');
  return {
    read(sessionId, root) {
      const text = readPrivateFile(dir, fileName(sessionId, root));
      if (text === undefined) return undefined;
      try {
        const parsed = SessionRecordSchema.safeParse(JSON.parse(text));
        return parsed.success && parsed.data.root === root ? parsed.data : undefined;
      } catch {
        return undefined;
      }
    },
    write(sessionId, record) {
      const file = join(dir, fileName(sessionId, record.root));
      const temporary = `${file}.${process.pid}.${Date.now().toString(36)}.tmp`;
      try {
        mkdirSync(dir, { recursive: true, mode: 0o700 });
        if (!privateDirectory(dir)) return false;
        writeFileSync(temporary, JSON.stringify(record), { mode: 0o600, flag: 'wx' });
        renameSync(temporary, file);
        prune(dir);
        return true;
      } catch {
        rmSync(temporary, { force: true });
        return false;
      }
    },
  };
}

/** One file per session and repository; the name shows neither. */
function fileName(sessionId: string, root: string): string {
  return `${createHash('sha256').update(root).update('\0').update(sessionId).digest('hex').slice(0, 40)}.json`;
}

function readPrivateFile(dir: string, name: string): string | undefined {
  const path = join(dir, name);
  let fd: number | undefined;
  try {
    if (!privateDirectory(dir) || !lstatSync(path).isFile()) return undefined;
    // Non-blocking, and checked again on the open file: a swap after the lstat is not what gets read.
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
    const stat = fstatSync(fd);
    if (!stat.isFile() || !ownedAndPrivate(stat) || stat.size > MAX_RECORD_BYTES) return undefined;
    const buffer = Buffer.alloc(stat.size);
    let read = 0;
    while (read < stat.size) {
      const n = readSync(fd, buffer, read, stat.size - read, read);
      if (n === 0) break;
      read += n;
    }
    return buffer.subarray(0, read).toString('utf8');
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function ownedAndPrivate(stat: { uid: number; mode: number }): boolean {
  const uid = process.getuid?.();
  return (uid === undefined || stat.uid === uid) && (stat.mode & 0o022) === 0;
}

function privateDirectory(dir: string): boolean {
  const uid = process.getuid?.();
  return ownedAndPrivate(statSync(dir)) && (uid === undefined || lstatSync(dir).uid === uid);
}

/** Past PRUNE_PAST records, the newest KEPT stay; the records are dated only then. */
function prune(dir: string): void {
  const names = readdirSync(dir).filter((entry) => entry.endsWith('.json'));
  if (names.length <= PRUNE_PAST) return;
  const records = names
    .map((entry) => ({ path: join(dir, entry), written: statSync(join(dir, entry)).mtimeMs }))
    .sort((a, b) => b.written - a.written);
  for (const old of records.slice(KEPT)) rmSync(old.path, { force: true });
}

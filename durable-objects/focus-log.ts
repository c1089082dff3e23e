/**
 * @module durable-objects/focus-log
 * Focus recorded on a task after it was created (`POST /tasks/:id/paths`): focus paths, and skills
 * and agent-requested rules asked for by name, in the order they arrived, each once. A turn takes everything recorded up
 * to the moment it began (the `through` sequence number its record keeps); what arrived since the
 * previous turn began is what that turn moved to. Recording is idempotent: a path or skill
 * already recorded (or already the task's own) is a duplicate and changes nothing.
 */
import * as z from 'zod';
import { lazySchema } from '../src/lib/lazy-schema.ts';
import { FOCUS_LIMITS } from '../src/context/focus.ts';
import type { Moved } from '../src/context/provider.ts';
import type { FocusPost, FocusResult } from '../src/tasks/task-results.ts';

type Recorded = Exclude<FocusResult, { status: 'ok' | 'not-found' | 'conflict' }> | (Omit<Extract<FocusResult, { status: 'ok' }>, 'nextTurn'>);

/** Skills one task may ask for after it was created. */
export const MAX_POSTED_SKILLS = 64;
/** Agent-requested rules one task may ask for after it was created. */
export const MAX_POSTED_RULES = 64;

const RowSchema = lazySchema(() => z.object({ seq: z.number().int(), kind: z.enum(['path', 'skill', 'rule']), value: z.string() }));
type Row = z.infer<typeof RowSchema>;

export class FocusLog {
  readonly #sql: SqlStorage;

  constructor(sql: SqlStorage) {
    this.#sql = sql;
  }

  /** The highest sequence number recorded; 0 when nothing was. */
  through(): number {
    return this.#sql.exec<{ seq: number }>('SELECT COALESCE(MAX(seq), 0) AS seq FROM focus').one().seq;
  }

  /** What was recorded after `after` up to and including `upTo`, in order. */
  between(after: number, upTo: number): Moved {
    const rows = this.#sql
      .exec('SELECT seq, kind, value FROM focus WHERE seq > ? AND seq <= ? ORDER BY seq', after, upTo)
      .toArray()
      .map((row) => RowSchema.parse(row));
    return { paths: values(rows, 'path'), skills: values(rows, 'skill'), rules: values(rows, 'rule') };
  }

  /**
   * Records what is new in `post`, all or nothing; `known` holds what the task follows already
   * (its working directory, its focus paths and skills so far), which counts as duplicate.
   */
  record(post: FocusPost, known: { paths: ReadonlySet<string>; skills: ReadonlySet<string> }, now: number): Recorded {
    const stored = this.between(0, Number.MAX_SAFE_INTEGER);
    const seen = { path: new Set([...known.paths, ...stored.paths]), skill: new Set([...known.skills, ...stored.skills]), rule: new Set(stored.rules) };
    const split = (kind: Row['kind'], given: readonly string[]) => {
      const recorded: string[] = [];
      const duplicates: string[] = [];
      for (const value of given) {
        if (seen[kind].has(value) || (kind === 'path' && value === '')) duplicates.push(value);
        else {
          seen[kind].add(value);
          recorded.push(value);
        }
      }
      return { recorded, duplicates };
    };
    const paths = split('path', post.paths);
    const skills = split('skill', post.skills);
    const rules = split('rule', post.rules);
    if (stored.paths.length + paths.recorded.length > FOCUS_LIMITS.posted) {
      return { status: 'too-large', field: 'paths', message: `a task takes at most ${FOCUS_LIMITS.posted} paths after it was created; it holds ${stored.paths.length} and this adds ${paths.recorded.length}; nothing was recorded` };
    }
    if (stored.skills.length + skills.recorded.length > MAX_POSTED_SKILLS) {
      return { status: 'too-large', field: 'skills', message: `a task takes at most ${MAX_POSTED_SKILLS} skills after it was created; it holds ${stored.skills.length} and this adds ${skills.recorded.length}; nothing was recorded` };
    }
    if (stored.rules.length + rules.recorded.length > MAX_POSTED_RULES) {
      return { status: 'too-large', field: 'rules', message: `a task takes at most ${MAX_POSTED_RULES} rules after it was created; it holds ${stored.rules.length} and this adds ${rules.recorded.length}; nothing was recorded` };
    }
    // No await below: every row of the post commits together.
    for (const value of paths.recorded) this.#sql.exec("INSERT INTO focus (kind, value, received_at) VALUES ('path', ?, ?)", value, now);
    for (const value of skills.recorded) this.#sql.exec("INSERT INTO focus (kind, value, received_at) VALUES ('skill', ?, ?)", value, now);
    for (const value of rules.recorded) this.#sql.exec("INSERT INTO focus (kind, value, received_at) VALUES ('rule', ?, ?)", value, now);
    return { status: 'ok', paths, skills, rules };
  }
}

function values(rows: readonly Row[], kind: Row['kind']): string[] {
  return rows.filter((row) => row.kind === kind).map((row) => row.value);
}

/**
 * @module context/answer-checks
 * The runner's checks of a provider's answer: the result's shape, each entry (context/entry) and
 * each rule verdict (context/rule-verdict), one by one, so one bad item costs only itself. The
 * zod schemas define what an answer may hold and word every refusal.
 *
 * Each part is read by hand first (context/answer-checks-by-hand), which takes a well-formed
 * answer without the schemas; what it does not take goes through the schemas as before. Building
 * these schemas and walking every entry and rule verdict's cells through them was the biggest
 * single item of a session-start hook's own work (issue 56: some 6 ms of a CLI run of 75), and a
 * first turn built them while it waited on GitHub and walked them after the last answer.
 */
import * as z from 'zod';
import { lazySchema } from '../lib/lazy-schema.ts';
import { entryByHand, resultByHand, verdictByHand } from './answer-checks-by-hand.ts';
import { EntrySchema, STABILITIES, type Entry, type Stability } from './entry.ts';
import { MAX_NOTICE_CHARS, MAX_NOTICES } from './notices.ts';
import { RuleVerdictInputSchema, type RuleVerdictInput } from './rule-verdict.ts';
import { describeIssues } from './zod-issues.ts';

/** The result around the items, which are checked one by one after it. */
export const AnswerResultSchema = lazySchema(() => z.object({
  entries: z.array(z.unknown()),
  notes: z.array(z.string()).default([]),
  notices: z
    .array(z.object({ text: z.string().min(1).max(MAX_NOTICE_CHARS), stability: z.enum(STABILITIES) }))
    .max(MAX_NOTICES)
    .default([]),
  verdicts: z.array(z.unknown()).default([]),
}));

/** The result as the schema gives it, before its items are checked. */
export type AnswerResult = { entries: unknown[]; notes: string[]; notices: Array<{ text: string; stability: Stability }>; verdicts: unknown[] };

export type AnswerCheck =
  | {
      ok: true;
      entries: Entry[];
      verdicts: RuleVerdictInput[];
      /** One line per item refused, naming `entries[i]` or `verdicts[i]` and the field. */
      invalidEntries: string[];
      invalidVerdicts: string[];
      notes: string[];
      notices: Array<{ text: string; stability: Stability }>;
    }
  | { ok: false; reason: string };

/** A provider's answer (its result, or its entries alone) as the runner takes it. */
export function checkAnswer(value: unknown): AnswerCheck {
  const raw = Array.isArray(value) ? { entries: value } : value;
  let result = resultByHand(raw);
  if (!result) {
    const parsed = AnswerResultSchema.safeParse(raw);
    if (!parsed.success) return { ok: false, reason: describeIssues(parsed.error, '') };
    result = parsed.data;
  }
  const entries = checkEach(result.entries, entryByHand, EntrySchema, 'entries');
  const verdicts = checkEach(result.verdicts, verdictByHand, RuleVerdictInputSchema, 'verdicts');
  return { ok: true, entries: entries.valid, verdicts: verdicts.valid, invalidEntries: entries.invalid, invalidVerdicts: verdicts.invalid, notes: result.notes, notices: result.notices };
}

/**
 * The items `schema` accepts, in order, and one line per item it refuses, naming `label[index]`
 * and the field (a line's issues joined by commas, so a `; `-separated reason counts items).
 */
function checkEach<T>(raw: readonly unknown[], byHand: (value: unknown) => T | undefined, schema: z.ZodType<T, unknown>, label: string): { valid: T[]; invalid: string[] } {
  const valid: T[] = [];
  const invalid: string[] = [];
  raw.forEach((candidate, index) => {
    const taken = byHand(candidate);
    if (taken !== undefined) return void valid.push(taken);
    const parsed = schema.safeParse(candidate);
    if (parsed.success) valid.push(parsed.data);
    else invalid.push(describeIssues(parsed.error, `${label}[${index}]`, ', '));
  });
  return { valid, invalid };
}


/**
 * @module context/answer-checks-by-hand
 * A provider's answer read by hand before its zod schemas (context/answer-checks): a part taken
 * here is the value its schema would give, key for key and in its order (defaults filled in,
 * unknown keys dropped, keys held as undefined kept, a verdict's path and reason clipped); anything
 * not taken outright (a wrong type, a review date, a value that is not a plain object) is left to
 * the schema, which accepts it or says why not. They only ever take less than the schemas do:
 * test/context/answer-checks holds them to the schemas' answers over generated answers.
 */
import { isPlainObject } from '../lib/plain-object.ts';
import type { AnswerResult } from './answer-checks.ts';
import { CLIENT_CELLS, MAX_CELL_CHARS, type ClientCell } from './client-load.ts';
import { CLIENT_NAMES } from './client.ts';
import { COMMIT_SHA } from '../sources/snapshot.ts';
import { FRESHNESS, MAX_APPLIES_PATH_CHARS, MAX_APPLIES_TO, MAX_WHY_CHARS, OBJECT_ID, STABILITIES, type Entry } from './entry.ts';
import { MAX_NOTICE_CHARS, MAX_NOTICES } from './notices.ts';
import { boundVerdict, MAX_FORMAT_CHARS, RULE_VERDICTS, type RuleVerdictInput } from './rule-verdict.ts';
import { MAX_TITLE_CHARS } from './title.ts';

const plain = isPlainObject;
const INFINITE = Number.POSITIVE_INFINITY;
const text = (min: number, max: number) => (value: unknown): value is string => typeof value === 'string' && value.length >= min && value.length <= max;
const anyText = (value: unknown): value is string => typeof value === 'string';
const someText = text(1, INFINITE);
const strings = (value: unknown): value is string[] => Array.isArray(value) && value.every(anyText);
const oneOf = <T extends string>(list: readonly T[]) => (value: unknown): value is T => typeof value === 'string' && (list as readonly string[]).includes(value);
const matches = (pattern: RegExp) => (value: unknown): value is string => typeof value === 'string' && pattern.test(value);
const objectId = matches(OBJECT_ID);
// Each check made once, not per item: an answer's cells are many.
const stabilities = oneOf(STABILITIES);
const freshnesses = oneOf(FRESHNESS);
const titleText = text(1, MAX_TITLE_CHARS);
const noticeText = text(1, MAX_NOTICE_CHARS);
const clientNames = oneOf(CLIENT_NAMES);
const cellKinds = oneOf(CLIENT_CELLS);

type Check = (value: unknown) => boolean;

/**
 * The optional `fields` of `raw` the check takes, added to `out` in their order: each one `raw`
 * holds, even as undefined (zod keeps such a key); false when one holds a value its check refuses.
 */
function optional(raw: Record<string, unknown>, out: Record<string, unknown>, fields: ReadonlyArray<readonly [string, Check]>): boolean {
  for (const [key, check] of fields) {
    if (!(key in raw)) continue;
    const value = raw[key];
    if (value !== undefined && !check(value)) return false;
    out[key] = value;
  }
  return true;
}

/** The result around the items as AnswerResultSchema gives it, or undefined for the schema to judge. */
export function resultByHand(raw: unknown): AnswerResult | undefined {
  if (!plain(raw) || !Array.isArray(raw.entries)) return undefined;
  const { notes = [], notices = [], verdicts = [] } = raw;
  if (!strings(notes) || !Array.isArray(verdicts) || !Array.isArray(notices) || notices.length > MAX_NOTICES) return undefined;
  if (!notices.every((notice) => plain(notice) && noticeText(notice.text) && stabilities(notice.stability))) return undefined;
  return { entries: [...raw.entries], notes: [...notes], notices: notices.map(({ text, stability }: AnswerResult['notices'][number]) => ({ text, stability })), verdicts: [...verdicts] };
}

const SOURCE_FIELDS: ReadonlyArray<readonly [string, Check]> = [
  ['path', someText],
  ['revision', matches(COMMIT_SHA)],
  ['blob', objectId],
];
const appliesPath = text(1, MAX_APPLIES_PATH_CHARS);
const ENTRY_FIELDS: ReadonlyArray<readonly [string, Check]> = [
  ['appliesTo', (value) => plain(value) && Array.isArray(value.paths) && value.paths.length <= MAX_APPLIES_TO && value.paths.every(appliesPath) && Number.isSafeInteger(value.total) && (value.total as number) >= 0],
  ['why', text(1, MAX_WHY_CHARS)],
];

/** An entry as EntrySchema gives it, or undefined for the schema to judge. */
export function entryByHand(raw: unknown): Entry | undefined {
  // A review date is checked by the schema's date format (memory's entries carry one).
  if (!plain(raw) || 'reviewBy' in raw) return undefined;
  const { title, body, source, freshness, warnings = [], truncated = false, stability = 'task' } = raw;
  if (!titleText(title) || !anyText(body) || !freshnesses(freshness) || !strings(warnings) || typeof truncated !== 'boolean' || !stabilities(stability)) return undefined;
  if (!plain(source) || !someText(source.uri)) return undefined;
  const kept: Record<string, unknown> = { uri: source.uri };
  if (!optional(source, kept, SOURCE_FIELDS) || (freshness === 'pinned' && kept.revision === undefined)) return undefined;
  // The schema's keys in its order.
  const entry: Record<string, unknown> = { title, body, source: kept, freshness, warnings: [...warnings], truncated, stability };
  if (!optional(raw, entry, ENTRY_FIELDS)) return undefined;
  const appliesTo = entry.appliesTo as Entry['appliesTo'];
  if (appliesTo) entry.appliesTo = { paths: [...appliesTo.paths], total: appliesTo.total };
  return entry as Entry;
}

const cellDetail = text(0, MAX_CELL_CHARS);
const VERDICT_FIELDS: ReadonlyArray<readonly [string, Check]> = [
  ['path', someText],
  ['blob', objectId],
  ['format', text(1, MAX_FORMAT_CHARS)],
  ['verdict', oneOf(RULE_VERDICTS)],
  ['reason', anyText],
  ['clients', (value) => Array.isArray(value) && value.length <= CLIENT_NAMES.length && value.every((cell) => plain(cell) && clientNames(cell.client) && cellKinds(cell.cell) && cellDetail(cell.detail))],
  ['entry', anyText],
];

/** A verdict as RuleVerdictInputSchema gives it (clipped), or undefined for the schema to judge. */
export function verdictByHand(raw: unknown): RuleVerdictInput | undefined {
  // path, format, verdict and reason are required: present and not undefined.
  if (!plain(raw) || raw.path === undefined || raw.format === undefined || raw.verdict === undefined || raw.reason === undefined) return undefined;
  const verdict: Record<string, unknown> = {};
  if (!optional(raw, verdict, VERDICT_FIELDS)) return undefined;
  const clients = verdict.clients as ClientCell[] | undefined;
  if (clients) verdict.clients = clients.map(({ client, cell, detail }) => ({ client, cell, detail }));
  return boundVerdict(verdict as unknown as RuleVerdictInput);
}

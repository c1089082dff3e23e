/**
 * @module providers/skills/rank
 * Which skills a task most likely needs, when the index cannot hold them all: a BM25 match of
 * the task's words (its request and its focus paths) against each skill's name and description.
 * Lexical and deterministic: no model, no randomness, no clock; the same skills and the same
 * task give the same order on every host. Ties keep the index order (name, then path), so a
 * task whose words match nothing keeps the skills a name-order cut would keep.
 *
 * Words: NFKC, camelCase and snake_case split, lowercased, runs of letters and digits; words of
 * one character and common English function words are left out; a trailing plural `s` is
 * dropped (`tests` matches `test`). A name's words count twice: a skill named `release-notes`
 * is about release notes more surely than one that mentions them.
 *
 * @example
 * rankSkills(skills, taskWords('Draft the release notes', ['docs/CHANGELOG.md']))
 * // release-notes first, then the rest in index order
 */
import { asciiFirst, isAscii, type AsciiFirst } from '../../lib/unicode-regexp.ts';
import type { Skill } from './skill-index.ts';

/** BM25's term-frequency saturation and length normalisation, at their usual values. */
const K1 = 1.2;
const B = 0.75;
const NAME_WEIGHT = 2;

const STOP_WORDS = new Set(
  'a an and are as at be but by can do does for from has have how i if in into is it its me my no not of on or our please so that the their then there these this to up us use using was we were what when where which who why will with would you your'.split(' '),
);

/** camelCase's boundary, then an acronym's end (`HTTPServer`), and the runs a word is made of. */
export const LOWER_UPPER = asciiFirst(/([a-z])([A-Z])/g, () => /(\p{Ll})(\p{Lu})/gu);
export const UPPER_WORD = asciiFirst(/([A-Z])([A-Z][a-z])/g, () => /(\p{Lu})(\p{Lu}\p{Ll})/gu);
export const WORD = asciiFirst(/[A-Za-z0-9]+/g, () => /[\p{L}\p{N}]+/gu);

/** The words of a text, in order, repeats kept. */
export function words(text: string): string[] {
  // NFKC leaves ASCII as it is, and ASCII cases into ASCII: one check picks every expression.
  const ascii = isAscii(text);
  const pick = (pair: AsciiFirst) => (ascii ? pair.ascii : pair.unicode());
  const split = (ascii ? text : text.normalize('NFKC'))
    .replace(pick(LOWER_UPPER), '$1 $2')
    .replace(pick(UPPER_WORD), '$1 $2')
    .toLowerCase();
  return (split.match(pick(WORD)) ?? []).filter((word) => word.length > 1 && !STOP_WORDS.has(word)).map(stem);
}

/** What a task says it is about: its request and the paths it touches. */
export function taskWords(request: string, paths: readonly string[]): string[] {
  return [...words(request), ...paths.flatMap(words)];
}

/** `skills` in index order; the result is best match first, ties in index order. */
export function rankSkills(skills: readonly Skill[], query: readonly string[]): Skill[] {
  const terms = [...new Set(query)];
  const docs = skills.map((skill) => termCounts([...repeat(words(skill.name.replace(/-/g, ' ')), NAME_WEIGHT), ...words(skill.description)]));
  const lengths = docs.map((doc) => [...doc.values()].reduce((sum, n) => sum + n, 0));
  const average = lengths.reduce((sum, n) => sum + n, 0) / Math.max(1, lengths.length);
  const idf = new Map(terms.map((term) => [term, inverseFrequency(docs.filter((doc) => doc.has(term)).length, docs.length)]));
  const scores = docs.map((doc, i) => {
    const norm = K1 * (1 - B + (B * (lengths[i] ?? 0)) / (average || 1));
    return terms.reduce((sum, term) => {
      const tf = doc.get(term) ?? 0;
      return tf === 0 ? sum : sum + ((idf.get(term) ?? 0) * tf * (K1 + 1)) / (tf + norm);
    }, 0);
  });
  return skills.map((skill, i) => ({ skill, i, score: scores[i] ?? 0 })).sort((a, b) => b.score - a.score || a.i - b.i).map(({ skill }) => skill);
}

/** BM25's idf with the +1 that keeps it positive for words most documents hold. */
function inverseFrequency(holding: number, total: number): number {
  return Math.log(1 + (total - holding + 0.5) / (holding + 0.5));
}

function termCounts(terms: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
  return counts;
}

function repeat<T>(items: readonly T[], times: number): T[] {
  return Array.from({ length: times }, () => items).flat();
}

function stem(word: string): string {
  return word.length > 3 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word;
}

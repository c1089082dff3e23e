/**
 * @module providers/skills/index-entry
 * The compact skills index: one line per skill (name, description, location of its SKILL.md),
 * fitted to a token budget. Over budget, descriptions are shortened first (all to one common
 * length, ending in an ellipsis, never below `MIN_DESCRIPTION_CHARS`); only then are whole
 * skills dropped, from the end of the priority order (the task's ranking, see rank.ts; the
 * name order without one), and named in a warning. Kept skills are listed in name order either way.
 */
import { countTokens } from '../../context/tokens.ts';
import type { Skill } from './skill-index.ts';

export const INDEX_HEADER = "Agent skills in this repository, one per line as `name: description (path of its SKILL.md)`. Read a skill's SKILL.md before using it.";

/** The header of the index of skills that only the task's focus paths bring. */
export const FOCUS_INDEX_HEADER =
  "More agent skills, kept by sub-projects this task touches, one per line as `name: description (path of its SKILL.md)`. Read a skill's SKILL.md before using it.";

/** Shorter than this, a description stops saying what the skill is for; dropping is more honest. */
export const MIN_DESCRIPTION_CHARS = 40;

export interface FittedIndex {
  /** Undefined when not even the header fits. */
  body?: string;
  warnings: string[];
  /** Names of the skills left out, in priority order. */
  dropped: string[];
}

export interface FitOptions {
  /** The same skills, most wanted first; without it, the index order. */
  priority?: readonly Skill[];
  header?: string;
}

/** Made on first use: creating a Segmenter loads ICU's break rules, ~15 ms of a CLI run. */
let graphemes: Intl.Segmenter | undefined;
/** Printable ASCII: each character is one user-perceived character (only CR LF pairs, and nothing here combines). */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

interface Line {
  skill: Skill;
  /**
   * Description split into user-perceived characters, so a cut never splits an emoji or a
   * combining mark. Split only when a description may be cut: an index that fits whole never needs it.
   */
  chars(): readonly string[];
}

function characters(text: string): string[] {
  if (PRINTABLE_ASCII.test(text)) return text.split('');
  return Array.from((graphemes ??= new Intl.Segmenter('en', { granularity: 'grapheme' })).segment(text), (part) => part.segment);
}

function lineOf(skill: Skill): Line {
  let chars: string[] | undefined;
  return { skill, chars: () => (chars ??= characters(skill.description)) };
}

/** `skills` must already be in index order (name, then path). */
export function fitIndex(skills: readonly Skill[], budget: number, options: FitOptions = {}): FittedIndex {
  const header = options.header ?? INDEX_HEADER;
  const lines: Line[] = skills.map(lineOf);
  const position = new Map(skills.map((skill, i) => [skill, i]));
  const wanted = (options.priority ?? skills).flatMap((skill) => {
    const line = lines[position.get(skill) ?? -1];
    return line ? [line] : [];
  });
  // The first n of the priority order, listed in index order.
  const top = (n: number) => wanted.slice(0, n).sort((a, b) => (position.get(a.skill) ?? 0) - (position.get(b.skill) ?? 0));
  const fits = (kept: number, cap?: number) => countTokens(render(header, top(kept), cap)) <= budget;
  if (fits(lines.length)) return { body: render(header, lines), warnings: [], dropped: [] };
  const longest = Math.max(0, ...lines.map((line) => line.chars().length));

  const warnings: string[] = [];
  const floor = Math.min(MIN_DESCRIPTION_CHARS, longest);
  const cap = fits(lines.length, floor) ? largest(floor, longest - 1, (c) => fits(lines.length, c)) : floor;
  if (cap < longest) warnings.push(`skills index: descriptions shortened to at most ${cap} characters to fit ${budget} tokens`);

  const kept = fits(lines.length, cap) ? lines.length : largest(0, lines.length - 1, (n) => fits(n, cap));
  const dropped = wanted.slice(kept).map((line) => line.skill.name);
  if (dropped.length > 0) {
    const how = options.priority ? ', keeping those that best match the task (its request and focus paths against name and description)' : '';
    warnings.push(`skills index: ${dropped.length} of ${lines.length} skills left out to fit ${budget} tokens${how}: ${dropped.join(', ')}`);
  }
  if (!fits(kept, cap)) return { warnings, dropped };
  return { body: render(header, top(kept), cap), warnings, dropped };
}

/** Without `cap`, every description whole. */
function render(header: string, lines: readonly Line[], cap?: number): string {
  return [header, ...lines.map(({ skill, chars }) => `- ${skill.name}: ${cap === undefined ? skill.description : shorten(chars(), cap)} (${skill.path})`)].join('\n');
}

function shorten(chars: readonly string[], cap: number): string {
  if (chars.length <= cap) return chars.join('');
  return `${chars.slice(0, Math.max(0, cap - 1)).join('').trimEnd()}…`;
}

/** The largest n in [low, high] with `ok(n)`, assuming `ok` holds up to some point and fails after; `low` if none. */
function largest(low: number, high: number, ok: (n: number) => boolean): number {
  let best = low;
  while (low <= high) {
    const mid = Math.floor((low + high) / 2);
    if (ok(mid)) {
      best = mid;
      low = mid + 1;
    } else high = mid - 1;
  }
  return best;
}

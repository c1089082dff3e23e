/**
 * @module triggers/text
 * Reading intent out of free text people type (a PR comment, a Slack command): `$skill`
 * selections and `@handle` mentions. Code and quoted replies are not read, so a shell `$var` in
 * a snippet selects nothing and quoting an earlier request does not start it again.
 */
import { skillMentions } from '../lib/skill-names.ts';

/** Code (fenced and inline) and `>` quoted lines removed; what the person actually said. */
export function spokenText(markdown: string): string {
  return markdown
    .replace(/^(`{3,}|~{3,})[^\n]*\n[\s\S]*?(?:^\1[^\n]*$|(?![\s\S]))/gm, ' ')
    .replace(/`[^`\n]*`/g, ' ')
    .replace(/^[ \t]*>.*$/gm, ' ');
}

const MAX_SKILLS = 32;

/**
 * Unique `$name` selections in order of first appearance, read as the skills provider reads
 * them (so `$навык` counts and `$5` in "costs $5" is money, not a skill).
 *
 * @example
 * collectSkills('fix it with $tdd and $review-pr, not `$HOME`') // ['tdd', 'review-pr']
 */
export function collectSkills(text: string): string[] {
  return skillMentions(spokenText(text)).slice(0, MAX_SKILLS);
}

/** True when `@handle` appears as a mention (GitHub handles are case-insensitive). */
export function mentions(markdown: string, handle: string): boolean {
  const escaped = handle.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?<![\\w/@.-])@${escaped}(?![\\w-])`, 'i').test(spokenText(markdown));
}

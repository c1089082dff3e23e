/**
 * @module providers/skills/selected-entry
 * A selected skill's instructions as their own entry. The frontmatter is stripped: its name and
 * description are already in the index, and fields such as `allowed-tools` are a repository's
 * claim that must not read like a grant. After the instructions comes the listing of the files
 * bundled with the skill (progressive disclosure), which may take at most half the skill's
 * token share and is shortened first; the instructions get the rest. Instructions that still do
 * not fit are cut with the visible truncation marker and a line saying where the rest is: the
 * SKILL.md's path and the line to read on from, so the model can read it instead of guessing.
 */
import type { EntryInput } from '../../context/entry.ts';
import { clipTitle } from '../../context/title.ts';
import { countTokens } from '../../context/tokens.ts';
import { truncateToTokens, type Truncation } from '../../context/truncate.ts';
import type { ReadResult, Snapshot } from '../../sources/snapshot.ts';
import { renderBundledFiles, type BundledListing } from './bundled-files.ts';
import { splitFrontmatter } from '../frontmatter.ts';
import type { Skill } from './skill-index.ts';

export type SkillFile = Extract<ReadResult, { status: 'ok' }>;

export type SelectedEntry = { ok: true; entry: EntryInput } | { ok: false; warning: string };

export interface SelectedOptions {
  /** Bytes of SKILL.md that were read at most. */
  maxBytes: number;
  /** The skill's whole token share: instructions and listing. */
  maxTokens: number;
  bundled?: { listing: BundledListing; maxFiles: number; maxDepth: number };
}

export function selectedEntry(snapshot: Snapshot, skill: Skill, file: SkillFile, options: SelectedOptions): SelectedEntry {
  const split = splitFrontmatter(file.text);
  const body = (split.kind === 'split' ? split.body : file.text).replace(/^\s*\n/, '');
  if (body.trim() === '') return { ok: false, warning: `selected skill ${skill.name}: ${skill.path} has no instructions after its frontmatter` };

  const warnings: string[] = [];
  const listing = options.bundled ? fitListing(options.bundled, Math.floor(options.maxTokens / 2)) : undefined;
  if (listing === null) warnings.push(`${skill.path}: the list of files bundled with the skill was left out; its share of ${options.maxTokens} tokens cannot hold it`);
  const appendix = listing ? `\n\n${listing}` : '';
  const share = options.maxTokens - countTokens(appendix);

  const fitted = fitInstructions(file, body, share, skill.path);
  if (!fitted) return { ok: false, warning: `selected skill ${skill.name}: left out, its ${share}-token share cannot hold even the truncation marker` };
  const { cut, text } = fitted;

  if (file.truncated) warnings.push(`${skill.path}: read the first ${options.maxBytes} of ${file.size} bytes`);
  if (cut.truncated) warnings.push(`${skill.path}: truncated to ${share} tokens, shown ${cut.shown}/${cut.total} chars`);
  return {
    ok: true,
    entry: {
      title: clipTitle(`Selected skill: ${skill.name}`),
      body: appendix === '' ? text : `${text.trimEnd()}${appendix}`,
      source: { uri: snapshot.uri(skill.path), path: skill.path, revision: snapshot.commit, blob: file.blob },
      freshness: 'pinned',
      // Chosen by the task: never part of the prefix every task on the commit shares.
      stability: 'task',
      warnings,
      truncated: cut.truncated || file.truncated,
    },
  };
}

/**
 * The instructions whole when they fit `share`; else cut with the marker, followed by where the
 * rest is (the line of the file the cut falls on), both inside the share.
 */
function fitInstructions(file: SkillFile, body: string, share: number, path: string): { cut: Truncation; text: string } | undefined {
  const whole = truncateToTokens(body, share, path);
  if (!whole || !whole.truncated) return whole && { cut: whole, text: whole.text };
  // Sized for the widest line numbers the hint could carry, so the real one never overflows.
  const lines = countLines(file.text);
  const cut = truncateToTokens(body, share - countTokens(restHint(path, lines, lines, file.truncated)), path);
  if (!cut) return undefined;
  const offset = file.text.length - body.length + cut.shown;
  return { cut, text: `${cut.text}${restHint(path, countLines(file.text.slice(0, offset)), lines, file.truncated)}` };
}

function restHint(path: string, line: number, lines: number, partial: boolean): string {
  const size = partial ? `more than the ${lines} lines read` : `${lines} lines`;
  return `\n[The rest of this skill is in ${path} (${size}): read it from line ${line} before following the instructions above.]`;
}

function countLines(text: string): number {
  let lines = 1;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lines++;
  return lines;
}

/**
 * The listing with as many lines as fit `maxTokens` (the rest counted in its last line);
 * undefined when nothing is bundled, null when not even its header fits.
 */
function fitListing(bundled: NonNullable<SelectedOptions['bundled']>, maxTokens: number): string | undefined | null {
  const { listing, maxFiles, maxDepth } = bundled;
  for (let lines = Math.min(maxFiles, listing.files.length); lines >= 0; lines--) {
    const text = renderBundledFiles(listing, lines, maxDepth);
    if (text === undefined) return undefined;
    if (countTokens(`\n\n${text}`) <= maxTokens) return text;
  }
  return null;
}

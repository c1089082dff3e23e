/**
 * @module providers/skills/selected-entry
 * A selected skill's instructions as their own entry. The frontmatter is stripped: its name and
 * description are already in the index, and fields such as `allowed-tools` are a repository's
 * claim that must not read like a grant. After the instructions comes the listing of the files
 * bundled with the skill (progressive disclosure), which may take at most half the skill's
 * token share and is shortened first; the instructions get the rest, cut with the visible
 * truncation marker.
 */
import type { EntryInput } from '../../context/entry.ts';
import { clipTitle } from '../../context/title.ts';
import { countTokens } from '../../context/tokens.ts';
import { truncateToTokens } from '../../context/truncate.ts';
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

  const cut = truncateToTokens(body, share, skill.path);
  if (!cut) return { ok: false, warning: `selected skill ${skill.name}: left out, its ${share}-token share cannot hold even the truncation marker` };

  if (file.truncated) warnings.push(`${skill.path}: read the first ${options.maxBytes} of ${file.size} bytes`);
  if (cut.truncated) warnings.push(`${skill.path}: truncated to ${share} tokens, shown ${cut.shown}/${cut.total} chars`);
  return {
    ok: true,
    entry: {
      title: clipTitle(`Selected skill: ${skill.name}`),
      body: appendix === '' ? cut.text : `${cut.text.trimEnd()}${appendix}`,
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

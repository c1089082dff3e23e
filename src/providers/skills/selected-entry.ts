/**
 * @module providers/skills/selected-entry
 * A selected skill's instructions as their own entry. The frontmatter is stripped: its name and
 * description are already in the index, and fields such as `allowed-tools` are a repository's
 * claim that must not read like a grant. The body is cut to its token share with the visible
 * truncation marker.
 */
import type { EntryInput } from '../../context/entry.ts';
import { clipTitle } from '../../context/title.ts';
import { truncateToTokens } from '../../context/truncate.ts';
import type { ReadResult, Snapshot } from '../../sources/snapshot.ts';
import { splitSkillFile } from './frontmatter.ts';
import type { Skill } from './skill-index.ts';

export type SkillFile = Extract<ReadResult, { status: 'ok' }>;

export type SelectedEntry = { ok: true; entry: EntryInput } | { ok: false; warning: string };

export function selectedEntry(snapshot: Snapshot, skill: Skill, file: SkillFile, maxBytes: number, maxTokens: number): SelectedEntry {
  const split = splitSkillFile(file.text);
  const body = (split.kind === 'split' ? split.body : file.text).replace(/^\s*\n/, '');
  if (body.trim() === '') return { ok: false, warning: `selected skill ${skill.name}: ${skill.path} has no instructions after its frontmatter` };

  const cut = truncateToTokens(body, maxTokens, skill.path);
  if (!cut) return { ok: false, warning: `selected skill ${skill.name}: left out, its ${maxTokens}-token share cannot hold even the truncation marker` };

  const warnings: string[] = [];
  if (file.truncated) warnings.push(`${skill.path}: read the first ${maxBytes} of ${file.size} bytes`);
  if (cut.truncated) warnings.push(`${skill.path}: truncated to ${maxTokens} tokens, shown ${cut.shown}/${cut.total} chars`);
  return {
    ok: true,
    entry: {
      title: clipTitle(`Selected skill: ${skill.name}`),
      body: cut.text,
      source: { uri: snapshot.uri(skill.path), path: skill.path, revision: snapshot.commit },
      freshness: 'pinned',
      warnings,
      truncated: cut.truncated || file.truncated,
    },
  };
}

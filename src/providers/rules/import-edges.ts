/**
 * @module providers/rules/import-edges
 * Which found files import which other found files: a `CLAUDE.md` that says `@AGENTS.md` (a
 * common way to share one file between tools) makes Claude Code load that `AGENTS.md` with it,
 * although Groundwork gives the `AGENTS.md` as the directory's file and never expands the
 * `CLAUDE.md` it shadows. Each file's verdict lists its importers, so a client profile counts the
 * file as loaded when it loads an importer and follows its imports. References are found as the
 * expansion finds them (imports.ts), at most 64 per file; only files already found count.
 */
import type { RuleVerdictInput } from '../../context/rule-verdict.ts';
import { findReferences, importTarget } from './imports.ts';

const MAX_REFERENCES = 64;

export function withImporters(verdicts: readonly RuleVerdictInput[], texts: ReadonlyArray<{ path: string; text: string }>): RuleVerdictInput[] {
  const found = new Set(verdicts.flatMap((verdict) => (verdict.found ? [verdict.path] : [])));
  const importers = new Map<string, Array<{ path: string; reference: string }>>();
  for (const { path, text } of texts) {
    for (const reference of findReferences(text).slice(0, MAX_REFERENCES)) {
      const target = importTarget(reference, path);
      if (target === undefined || target === path || !found.has(target)) continue;
      const list = importers.get(target) ?? [];
      if (!list.some((item) => item.path === path)) list.push({ path, reference });
      importers.set(target, list);
    }
  }
  return verdicts.map((verdict) => {
    const list = verdict.found ? importers.get(verdict.path) : undefined;
    return list && verdict.found ? { ...verdict, found: { ...verdict.found, importers: list } } : verdict;
  });
}

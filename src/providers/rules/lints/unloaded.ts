/**
 * @module providers/rules/lints/unloaded
 * A rule file no client of the repository's set loads by itself, from any working directory: a
 * GEMINI.md in a repository whose agents are Codex and Claude Code, a Cursor rule nobody can reach,
 * an AGENTS.md every client of the set reads another file instead of. Only Groundwork would give
 * it. Imports are left to their importers (import-lints), and blank files hold nothing to miss.
 */
import { CLIENT_TITLES } from '../../../context/client.ts';
import type { RuleLint } from '../../../context/rule-lint.ts';
import type { LintInput } from './lint-input.ts';

const LOADED = new Set(['start', 'lazy', 'cut']);

export function unloadedLints(input: LintInput): RuleLint[] {
  const out: RuleLint[] = [];
  for (const file of input.files) {
    if (!file.found || file.format === 'import' || file.found.blank) continue;
    const loads = input.clients.map((client) => ({ client, load: file.ever[client] }));
    if (loads.some(({ load }) => load !== undefined && LOADED.has(load.load))) continue;
    if (loads.every(({ load }) => load === undefined)) continue;
    const whys = loads.flatMap(({ client, load }) => {
      if (!load) return [];
      const why = load.load === 'shadowed' ? `reads ${load.by} instead` : load.load === 'never' ? load.why : '';
      return [`${CLIENT_TITLES[client]}: ${why}`];
    });
    out.push({
      code: 'loaded-by-no-client',
      severity: 'warning',
      path: file.path,
      clients: [...input.clients],
      message: `no client of the set loads it by itself (${whys.slice(0, 3).join('; ')}${whys.length > 3 ? `; ${whys.length - 3} more` : ''})`,
      facts: loads.flatMap(({ load }) => (load ? [load.fact] : [])),
    });
  }
  return out;
}

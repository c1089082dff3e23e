/**
 * @module providers/rules/lints/disagreement
 * Two instruction files in one directory with different text, and clients of the set that read
 * different ones of them: AGENTS.md for Codex, CLAUDE.md for Claude Code, so the agents follow
 * different rules in that directory and nobody is told. What a client reads there is taken from
 * its profile (from any working directory), imports included, so a CLAUDE.md that only says
 * `@AGENTS.md` (or a symlink to it) agrees with its AGENTS.md, and so does one that adds a preface
 * to it: only clients neither of which reads all the other reads disagree. Texts are compared without line-end
 * and trailing-space differences, and a file that holds nothing but `@` imports counts as no text
 * of its own.
 */
import { CLIENT_TITLES, type ClientName } from '../../../context/client.ts';
import type { RuleLint } from '../../../context/rule-lint.ts';
import { findReferences } from '../imports.ts';
import type { LintFile, LintInput } from './lint-input.ts';

const LOADED = new Set(['start', 'lazy', 'cut']);

function own(text: string): string {
  let rest = text.replace(/\r\n?/g, '\n');
  for (const reference of findReferences(text)) rest = rest.replace(`@${reference}`, '');
  return rest.split('\n').map((line) => line.trimEnd()).join('\n').trim();
}

export function disagreementLints(input: LintInput): RuleLint[] {
  const byDir = new Map<string, LintFile[]>();
  for (const file of input.files) {
    if (!file.found || file.text === undefined) continue;
    if (file.format !== 'directory-file') continue;
    const dir = file.found.dir;
    byDir.set(dir, [...(byDir.get(dir) ?? []).filter((other) => other.path !== file.path), file]);
  }
  const out: RuleLint[] = [];
  for (const [dir, files] of byDir) {
    if (files.filter((file) => file.format === 'directory-file').length < 2) continue;
    const views = new Map<string, { clients: ClientName[]; paths: string[]; facts: string[] }>();
    for (const client of input.clients) {
      const read = files.filter((file) => LOADED.has(file.ever[client]?.load ?? 'never'));
      const texts = read.map((file) => own(file.text ?? '')).filter((text) => text !== '');
      if (texts.length === 0) continue;
      const key = [...new Set(texts)].sort().join('\0');
      const view = views.get(key) ?? { clients: [], paths: read.filter((file) => own(file.text ?? '') !== '').map((file) => file.path), facts: [] };
      view.facts.push(...read.flatMap((file) => file.ever[client]?.fact ?? []));
      view.clients.push(client);
      views.set(key, view);
    }
    // One client reading more than another (a CLAUDE.md that adds a preface to the AGENTS.md it imports) is no disagreement: only views neither of which holds the other are.
    const keys = [...views.keys()];
    const holds = (a: string, b: string) => b.split('\0').every((text) => a.split('\0').includes(text));
    const apart = keys.filter((a) => keys.some((b) => !holds(a, b) && !holds(b, a)));
    if (apart.length < 2) continue;
    const all = apart.flatMap((key) => views.get(key) ?? []);
    const paths = [...new Set(all.flatMap((view) => view.paths))].sort();
    const said = all.map((view) => `${view.clients.map((client) => CLIENT_TITLES[client]).join(', ')} ${view.clients.length === 1 ? 'reads' : 'read'} ${view.paths.join(' + ')}`).join('; ');
    out.push({
      code: 'directory-disagreement',
      severity: 'warning',
      path: paths[0] ?? dir,
      clients: all.flatMap((view) => view.clients),
      message: `${dir === '' ? 'the repository root' : dir}: the clients read different files with different text (${said})`,
      facts: all.flatMap((view) => view.facts),
      related: paths.slice(1),
    });
  }
  return out;
}

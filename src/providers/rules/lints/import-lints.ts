/**
 * @module providers/rules/lints/import-lints
 * An `@` import that names no file at the commit, or leaves the tree: the clients that follow
 * imports load nothing for it (Gemini CLI leaves an HTML comment nobody sees, Claude Code says
 * nothing), so the rule the author meant to share is missing. Reported for the clients of the set
 * that load the importer by itself and follow its imports, as each profile's `imports` answers
 * (a client that follows none, such as Codex, is not concerned).
 */
import type { ClientName } from '../../../context/client.ts';
import { CLIENT_TITLES } from '../../../context/client.ts';
import type { ClientLoad } from '../../../context/client-load.ts';
import type { RuleLint } from '../../../context/rule-lint.ts';
import { PROFILES } from '../../../clients/index.ts';
import type { LintFile, LintInput, ReferenceCheck } from './lint-input.ts';
import { lineOf } from './lines.ts';

const LOADED: ReadonlySet<ClientLoad['load']> = new Set(['start', 'lazy', 'cut']);

export function importLints(input: LintInput): RuleLint[] {
  const out: RuleLint[] = [];
  for (const check of input.references) {
    if (check.status === 'ok') continue;
    const importer = input.files.find((file) => file.path === check.importer && file.found);
    if (!importer) continue;
    const concerned = followers(importer, check, input.clients);
    if (concerned.length === 0) continue;
    const line = importer.text === undefined ? undefined : lineOf(importer.text, `@${check.reference}`);
    const who = concerned.map(({ client }) => CLIENT_TITLES[client]).join(' and ');
    const message =
      check.status === 'outside'
        ? `${who} load nothing for @${check.reference}: it leaves the repository (${check.why})`
        : `${who} load nothing for @${check.reference}: ${check.target} ${check.why}`;
    out.push({
      code: check.status === 'outside' ? 'import-outside-tree' : 'import-unresolved',
      severity: 'error',
      path: importer.path,
      ...(line === undefined ? {} : { line }),
      clients: concerned.map(({ client }) => client),
      message: message.replace(/ load nothing/, concerned.length === 1 ? ' loads nothing' : ' load nothing'),
      facts: concerned.map(({ fact }) => fact),
      ...(check.status === 'unresolved' ? { related: [check.target] } : {}),
    });
  }
  return out;
}

/** The clients of the set that load the importer and would follow this reference (started at the root). */
function followers(importer: LintFile, check: Exclude<ReferenceCheck, { status: 'ok' }>, clients: readonly ClientName[]): Array<{ client: ClientName; fact: string }> {
  const target = check.status === 'unresolved' ? check.target : check.reference;
  return clients.flatMap((client) => {
    const load = importer.ever[client];
    if (!load || !LOADED.has(load.load)) return [];
    const answer = PROFILES[client].imports({ path: target, format: 'import', dir: '', importedBy: importer.path, depth: (importer.found?.depth ?? 0) + 1, reference: check.reference }, load, { cwd: '' });
    return LOADED.has(answer.load) ? [{ client, fact: answer.fact }] : [];
  });
}

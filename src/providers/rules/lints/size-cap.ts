/**
 * @module providers/rules/lints/size-cap
 * A file a client cuts or drops for its size cap, as the profiles know the caps (Codex's
 * `project_doc_max_bytes`, 32 KiB shared by the chain root first, cut without a word): the rest of
 * the file, or the whole file, never reaches the model. Asked at the matrix's working directory
 * and from the file's own directory.
 */
import type { ClientName } from '../../../context/client.ts';
import { CLIENT_TITLES } from '../../../context/client.ts';
import type { ClientLoad } from '../../../context/client-load.ts';
import type { RuleLint } from '../../../context/rule-lint.ts';
import type { LintInput } from './lint-input.ts';

/** A load the cap decided: cut, or dropped because the files before it spent the budget. */
function capped(load: ClientLoad | undefined): load is Extract<ClientLoad, { load: 'cut' } | { load: 'never' }> {
  return load !== undefined && (load.load === 'cut' || (load.load === 'never' && load.fact.endsWith('.budget')));
}

export function sizeCapLints(input: LintInput): RuleLint[] {
  const out: RuleLint[] = [];
  for (const file of input.files) {
    if (!file.found) continue;
    for (const client of input.clients) {
      const here = file.loads[client];
      const load = capped(here) ? here : capped(file.ever[client]) ? file.ever[client] : undefined;
      if (!capped(load)) continue;
      out.push({ code: 'over-size-cap', severity: 'error', path: file.path, clients: [client], message: describe(client, load, file.found.bytes, here === load), facts: [load.fact] });
    }
  }
  return out;
}

function describe(client: ClientName, load: Extract<ClientLoad, { load: 'cut' } | { load: 'never' }>, bytes: number | undefined, here: boolean): string {
  const title = CLIENT_TITLES[client];
  const where = here ? '' : ' when it starts in this file\'s directory';
  if (load.load === 'cut') return `${title} cuts it at ${load.at} bytes${bytes === undefined ? '' : ` of ${bytes}`}${where}, without a word: the rest never reaches the model`;
  return `${load.why}${where}`;
}

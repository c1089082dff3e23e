/**
 * @module context/report-clients
 * Which clients a rules report shows a column for: the pull request check run's (the deployment's
 * `CHECK_RUN_CLIENTS`) and MCP `rules_for_paths`'s (its `clients` argument). A report has one
 * column per client as its profile was checked, so a column is named by the client alone: a
 * Copilot host or a version (`copilot:vscode`, `claude-code@2.1.332`) names a task's client, not
 * a column, and is refused with what to write instead. `none` is refused too: it is Groundwork's
 * own verdict, which every report shows anyway. Imports nothing but the client names, so the
 * configuration parses it without loading a profile.
 *
 * @example
 * parseReportClients(['codex', 'claude-code']) // { ok: true, clients: ['codex', 'claude-code'] }
 * parseReportClients(['copilot:vscode']).ok    // false: "copilot:vscode: a report has one column per client: name copilot"
 */
import * as z from 'zod';
import { CLIENT_NAMES, parseClient, type ClientName } from './client.ts';

/** Every client but `none`, in `CLIENT_NAMES` order: the default columns. */
export const REPORT_CLIENTS: readonly ClientName[] = CLIENT_NAMES.filter((name) => name !== 'none');

export const REPORT_CLIENT_RULE = `one of ${REPORT_CLIENTS.join(', ')}`;

export type ParsedReportClients = { ok: true; clients: ClientName[] } | { ok: false; index: number; reason: string };

/** The columns `names` ask for, in `CLIENT_NAMES` order without repeats; an empty list is every client. */
export function parseReportClients(names: readonly string[]): ParsedReportClients {
  const chosen = new Set<ClientName>();
  for (const [index, text] of names.entries()) {
    const shown = JSON.stringify(text.slice(0, 40));
    const parsed = parseClient(text);
    if (!parsed.ok) return { ok: false, index, reason: `${shown}: must be ${REPORT_CLIENT_RULE}` };
    const { name, variant, version } = parsed.client;
    if (name === 'none') return { ok: false, index, reason: `${shown}: none is Groundwork's own verdict, which a report always shows; name ${REPORT_CLIENT_RULE}` };
    if (variant !== undefined || version !== undefined) return { ok: false, index, reason: `${shown}: a report has one column per client, as its profile was checked: name ${name}` };
    chosen.add(name);
  }
  return { ok: true, clients: chosen.size === 0 ? [...REPORT_CLIENTS] : CLIENT_NAMES.filter((name) => chosen.has(name)) };
}

/**
 * A list of report columns as a field takes it (MCP `rules_for_paths`' `clients`, the rules
 * settings' `clients`): each entry checked by parseReportClients, an issue naming the entry.
 * `atLeastOne`: an empty list is refused rather than read as every client.
 */
export function reportClientsSchema(atLeastOne = false) {
  const names = z.array(z.string().max(64)).max(16, 'at most 16 clients');
  return (atLeastOne ? names.min(1, `name at least one client, each ${REPORT_CLIENT_RULE}`) : names).transform((given, ctx) => {
    const parsed = parseReportClients(given);
    if (parsed.ok) return parsed.clients;
    ctx.addIssue({ code: 'custom', message: parsed.reason, path: [parsed.index] });
    return z.NEVER;
  });
}

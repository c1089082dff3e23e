/**
 * @module tasks/list-link
 * Signed, expiring links to a tenant's task list (`/view?tenant=…&exp=…&sig=…`), so a person
 * with an API token can open the list in a browser: `GET /tasks` answers one for its caller.
 * Signed like task links (view-link.ts, same secrets and rotation) under another purpose, so
 * neither kind of link verifies as the other. A list link is a bearer token for reading its
 * tenant's list and every task on it, so it lasts a day at most; grants are looked up when it is
 * opened, so taking a grant away takes effect at once.
 */
import { checkLink, signLink, type ViewLinkCheck, type ViewLinkSecrets, type ViewLinkSettings } from './view-link.ts';

const LIST_PURPOSE = 'groundwork-list-link:v1';
/** A list link lasts this long, or `VIEW_LINK_TTL_HOURS` when that is shorter. */
export const LIST_LINK_MAX_HOURS = 24;
export interface ListLink {
  tenant: string;
  exp: string;
  sig: string;
}

/**
 * `<origin>/view?tenant=<tenant>&exp=<seconds>&sig=<hex>`, or null when this deployment signs no links.
 *
 * @example
 * await listViewUrl({ secret }, 'https://groundwork.example.com', 'api:acme', Date.now())
 */
export async function listViewUrl(settings: ViewLinkSettings, origin: string, tenant: string, nowMs: number): Promise<string | null> {
  if (!settings.secret) return null;
  const hours = Math.min(settings.ttlHours ?? LIST_LINK_MAX_HOURS, LIST_LINK_MAX_HOURS);
  const exp = Math.floor(nowMs / 1000) + hours * 3600;
  const query = new URLSearchParams({ tenant, exp: String(exp), sig: await signLink(settings.secret, LIST_PURPOSE, tenant, exp) });
  return `${origin}/view?${query.toString()}`;
}

export function checkListLink(secrets: ViewLinkSecrets, link: ListLink, nowMs: number): Promise<ViewLinkCheck> {
  return checkLink(secrets, LIST_PURPOSE, link.tenant, link.exp, link.sig, nowMs);
}

/**
 * @module tasks/tenant-grants
 * Which tenants' tasks a caller may read. A task belongs to the tenant that started it: an API
 * token's (`api:<name>`), a GitHub App installation's (`github:<id>`) or a Slack team's
 * (`slack:<id>`). The deployment may grant an API tenant the installations and teams it
 * administers (`TENANT_GRANTS`), so an organisation's token can list and read the tasks its
 * webhooks and slash commands started. Grants are for reading only: changing a task (turns,
 * transcript) stays with the tenant that owns it.
 */
import * as z from 'zod';
import { lazySchema } from '../lib/lazy-schema.ts';

/** `github:<installation id>` or `slack:<team id>`, the tenants triggers create tasks under. */
export const GrantedTenantSchema = lazySchema(() => z
  .string()
  .regex(/^(?:github:[1-9][0-9]{0,19}|slack:[A-Z0-9]{1,32})$/, 'must be github:<installation id> or slack:<team id>, e.g. github:12345678 or slack:T0123ABCD'));

export const TenantGrantsSchema = lazySchema(() => z.record(
  z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, 'must be an API tenant name from API_TOKENS'),
  z.array(GrantedTenantSchema).max(100),
));
export type TenantGrants = z.output<typeof TenantGrantsSchema>;

/**
 * Every tenant whose tasks `tenant` may read: itself first, then what it was granted.
 *
 * @example
 * readableTenants({ acme: ['github:42'] }, 'api:acme') // ['api:acme', 'github:42']
 * readableTenants({ acme: ['github:42'] }, 'github:42') // ['github:42']
 */
export function readableTenants(grants: TenantGrants, tenant: string): string[] {
  const name = tenant.startsWith('api:') ? tenant.slice('api:'.length) : undefined;
  const granted = name !== undefined && Object.hasOwn(grants, name) ? (grants[name] ?? []) : [];
  return [tenant, ...granted.filter((other) => other !== tenant)];
}

/** Whether `tenant` may read a task owned by `owner`. */
export function mayRead(grants: TenantGrants, tenant: string, owner: string): boolean {
  return readableTenants(grants, tenant).includes(owner);
}

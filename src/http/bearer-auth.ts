/**
 * @module http/bearer-auth
 * REST API tenants: `Authorization: Bearer <token>` maps to the tenant that owns the token.
 * Every configured token is compared, in constant time, whatever matches first.
 */
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from './app-env.ts';
import { getConfig } from '../env.ts';
import { secretsEqual } from './constant-time.ts';
import { ApiError } from './errors.ts';

export type TenantEnv = AppEnv & { Variables: AppEnv['Variables'] & { tenant: string } };

export async function tenantForToken(token: string, tokens: Readonly<Record<string, string>>): Promise<string | undefined> {
  const checks = await Promise.all(Object.entries(tokens).map(async ([tenant, expected]) => ((await secretsEqual(token, expected)) ? tenant : undefined)));
  return checks.find((tenant) => tenant !== undefined);
}

/** The API tenant (`api:<name>`) an `Authorization` header names, or why it names none. */
export async function bearerTenant(header: string | undefined, tokens: Readonly<Record<string, string>>): Promise<{ ok: true; tenant: string } | { ok: false; reason: 'missing' | 'invalid' }> {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  if (!match?.[1]) return { ok: false, reason: 'missing' };
  const tenant = await tenantForToken(match[1], tokens);
  return tenant ? { ok: true, tenant: `api:${tenant}` } : { ok: false, reason: 'invalid' };
}

export const requireTenant = createMiddleware<TenantEnv>(async (c, next) => {
  // Routers mounted side by side may both guard one path; the first check decides.
  if (c.get('tenant') !== undefined) return next();
  const bearer = await bearerTenant(c.req.header('authorization'), getConfig(c.env).API_TOKENS);
  if (!bearer.ok) throw new ApiError('unauthorized', bearer.reason === 'missing' ? 'Authorization: Bearer <token> is required' : 'the bearer token is not valid');
  c.set('tenant', bearer.tenant);
  await next();
});

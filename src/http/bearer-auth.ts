/**
 * @module http/bearer-auth
 * REST API tenants: `Authorization: Bearer <token>` maps to the tenant that owns the token.
 * Every configured token is compared, in constant time, whatever matches first.
 */
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../app.ts';
import { getConfig } from '../env.ts';
import { secretsEqual } from './constant-time.ts';
import { ApiError } from './errors.ts';

export type TenantEnv = AppEnv & { Variables: AppEnv['Variables'] & { tenant: string } };

export async function tenantForToken(token: string, tokens: Readonly<Record<string, string>>): Promise<string | undefined> {
  const checks = await Promise.all(Object.entries(tokens).map(async ([tenant, expected]) => ((await secretsEqual(token, expected)) ? tenant : undefined)));
  return checks.find((tenant) => tenant !== undefined);
}

export const requireTenant = createMiddleware<TenantEnv>(async (c, next) => {
  // Routers mounted side by side may both guard one path; the first check decides.
  if (c.get('tenant') !== undefined) return next();
  const header = c.req.header('authorization') ?? '';
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match?.[1]) throw new ApiError('unauthorized', 'Authorization: Bearer <token> is required');
  const tenant = await tenantForToken(match[1], getConfig(c.env).API_TOKENS);
  if (!tenant) throw new ApiError('unauthorized', 'the bearer token is not valid');
  c.set('tenant', `api:${tenant}`);
  await next();
});

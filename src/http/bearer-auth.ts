/**
 * @module http/bearer-auth
 * Who calls the REST API and `/mcp`: a person the OAuth provider let through (auth/api-gate hands
 * their sign-in over as `ctx.props`), or a machine host whose `Authorization: Bearer <token>` is
 * one of `API_TOKENS`, the tenant that owns the token. Every configured token is compared, in
 * constant time, whatever matches first.
 */
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from './app-env.ts';
import { getConfig } from '../env.ts';
import { personIdentity, personOfProps, type Identity } from '../auth/identity.ts';
import { secretsEqual } from './constant-time.ts';
import { ApiError } from './errors.ts';

export type TenantEnv = AppEnv & { Variables: AppEnv['Variables'] & { tenant: string; identity: Identity } };

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

/** The person the OAuth provider validated this request's token for, if it did (auth/api-gate). */
function personOfRequest(c: Context): Identity | undefined {
  let props: unknown;
  try {
    props = c.executionCtx.props;
  } catch {
    // No execution context: the app was called directly (tests), never through the provider.
    return undefined;
  }
  const person = personOfProps(props);
  return person ? personIdentity(person) : undefined;
}

/** Who is calling, or why nobody is: the person first (the provider checked their token), then an API token. */
export async function requestIdentity(c: Context): Promise<{ ok: true; identity: Identity } | { ok: false; reason: 'missing' | 'invalid' }> {
  const person = personOfRequest(c);
  if (person) return { ok: true, identity: person };
  const bearer = await bearerTenant(c.req.header('authorization'), getConfig(c.env as Env).API_TOKENS);
  return bearer.ok ? { ok: true, identity: { kind: 'token', tenant: bearer.tenant } } : bearer;
}

export const requireTenant = createMiddleware<TenantEnv>(async (c, next) => {
  // Routers mounted side by side may both guard one path; the first check decides.
  if (c.get('tenant') !== undefined) return next();
  const found = await requestIdentity(c);
  if (!found.ok) throw new ApiError('unauthorized', found.reason === 'missing' ? 'Authorization: Bearer <token> is required' : 'the bearer token is not valid');
  c.set('identity', found.identity);
  c.set('tenant', found.identity.tenant);
  await next();
});

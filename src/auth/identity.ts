/**
 * @module auth/identity
 * Who is calling. A machine host presents a static API token (`API_TOKENS`) and is the tenant
 * `api:<name>`: the deployment trusts it with every repository it can read, and its grants
 * (`TENANT_GRANTS`) with other tenants' tasks. A person signs in with GitHub (an MCP client's
 * OAuth flow or the inspector's "Sign in with GitHub") and is the tenant `github-user:<id>`:
 * GitHub decides which repositories they may read or change (auth/repository-access), with the
 * user access token their sign-in holds.
 */
import * as z from 'zod';
import { lazySchema } from '../lib/lazy-schema.ts';

/** GitHub's user access token for the deployment's App, as the sign-in received it. */
export const GitHubUserTokenSchema = lazySchema(() => z.object({
  accessToken: z.string().min(1).max(4096),
  /** Milliseconds since the epoch; absent when the App's user tokens do not expire. */
  expiresAt: z.number().int().positive().optional(),
  refreshToken: z.string().min(1).max(4096).optional(),
  refreshExpiresAt: z.number().int().positive().optional(),
}));
export type GitHubUserToken = z.output<typeof GitHubUserTokenSchema>;

/**
 * What a person's sign-in keeps (the OAuth grant's `props`, encrypted by the provider; the
 * inspector's session record, encrypted by auth/session): who they are on GitHub and their token.
 */
export const PersonSchema = lazySchema(() => z.object({
  userId: z.number().int().positive(),
  /** A GitHub login (an Enterprise Managed User's carries `_<shortcode>`). */
  login: z.string().min(1).max(80).regex(/^[A-Za-z0-9][A-Za-z0-9_-]*$/),
  github: GitHubUserTokenSchema,
}));
export type Person = z.output<typeof PersonSchema>;

/** What an OAuth grant keeps about the person (`props`, which the provider encrypts), and what a protected request's `ctx.props` holds. */
export const GrantPropsSchema = lazySchema(() => z.object({ person: PersonSchema }));
export type GrantProps = z.output<typeof GrantPropsSchema>;

/** The person a grant's props name, or undefined for props that are not a person's. */
export function personOfProps(props: unknown): Person | undefined {
  const parsed = GrantPropsSchema.safeParse(props);
  return parsed.success ? parsed.data.person : undefined;
}

export type Identity =
  | { kind: 'token'; tenant: string }
  | { kind: 'person'; tenant: string; person: Person };

/** `github-user:<GitHub user id>`: the tenant a person's tasks belong to (ids never change; logins can). */
export function personTenant(userId: number): string {
  return `github-user:${userId}`;
}

export function personIdentity(person: Person): Identity {
  return { kind: 'person', tenant: personTenant(person.userId), person };
}

/** How a person's changes are signed: tenant and login, as a Slack user's are `slack:<team>/<user>`. */
export function authorOf(identity: Identity): string {
  return identity.kind === 'person' ? `${identity.tenant}/${identity.person.login}` : identity.tenant;
}

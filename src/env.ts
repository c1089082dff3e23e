/**
 * @module env
 * Bindings and configuration, parsed with zod once per Env object or set of values (below).
 * Nothing deeper in the Worker reads `env` strings directly; it gets this typed config.
 */
import * as z from 'zod';
import { lazySchema } from './lib/lazy-schema.ts';
import type { AgentCatalog } from './context/agent-catalog.ts';
import { ConfigError } from './config-error.ts';
import { loadDeploymentAgents } from './deployment-agents.ts';
import { DeploymentSettingsSchema } from './providers/settings.ts';
import { TenantGrantsSchema } from './tasks/tenant-grants.ts';

const jsonString = <T extends z.ZodType>(schema: T) =>
  z.string().transform((text, ctx): z.output<T> => {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'is not valid JSON' });
      return z.NEVER;
    }
    const parsed = schema.safeParse(value);
    if (parsed.success) return parsed.data;
    for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
    return z.NEVER;
  });

const optionalSecret = lazySchema(() => z.string().min(1).optional());

export const ConfigSchema = z.object({
  /** `tenant=token,tenant=token`: each REST API tenant and its bearer token (16+ chars). */
  API_TOKENS: z
    .string()
    .default('')
    .transform((text, ctx) => {
      const tokens: Record<string, string> = {};
      const pairs = text.split(',').map((pair) => pair.trim()).filter((pair) => pair !== '');
      pairs.forEach((pair, index) => {
        const cut = pair.indexOf('=');
        const name = pair.slice(0, cut);
        const token = pair.slice(cut + 1);
        if (cut < 1 || !/^[A-Za-z0-9_.-]{1,64}$/.test(name)) ctx.addIssue({ code: 'custom', message: `entry ${index + 1} must be tenant=token with a tenant of A-Z a-z 0-9 _ . -` });
        else if (token.length < 16) ctx.addIssue({ code: 'custom', message: `the token of tenant ${name} must be at least 16 characters` });
        else tokens[name] = token;
      });
      return tokens;
    }),
  TASK_RETENTION_DAYS: z.coerce.number().int().positive().max(3650).default(30),
  /**
   * Milliseconds one assembly attempt may take, every network step included (ref, tree or pack,
   * provider reads). A task makes at most three attempts.
   */
  ASSEMBLY_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(15_000),
  /** Bytes a remote git fetch may transfer before it fails. */
  GIT_MAX_FETCH_BYTES: z.coerce.number().int().positive().default(16 * 1024 * 1024),
  /**
   * Hosts a git-URL task may name, comma-separated (`git.example.com`, `*.example.com`). Empty
   * allows any host: a tenant can then make the Worker fetch any http(s) URL.
   */
  GIT_ALLOWED_HOSTS: z
    .string()
    .default('')
    .transform((text) => text.split(',').map((host) => host.trim().toLowerCase()).filter((host) => host !== '')),
  GITHUB_API_URL: z.url().default('https://api.github.com'),
  /** `graphql`: read a task's files ahead in one GraphQL query, REST for the rest; `rest`: the git-data API only. */
  GITHUB_READS: z.enum(['graphql', 'rest']).default('graphql'),
  /** Below this many REST requests left, a task skips optional reads (selected skills' bodies) and names them as skipped. */
  GITHUB_RATE_LIMIT_FLOOR: z.coerce.number().int().nonnegative().default(100),
  /** A plain token for GitHub reads when no App is configured. */
  GITHUB_TOKEN: optionalSecret,
  GITHUB_APP_ID: z.string().regex(/^\d+$/).optional(),
  /** The App's Client ID (`Iv23li…`), which GitHub recommends as the JWT issuer; used over GITHUB_APP_ID when both are set. */
  GITHUB_APP_CLIENT_ID: z.string().regex(/^[A-Za-z0-9._-]{1,100}$/).optional(),
  /**
   * The App's client secret: with GITHUB_APP_CLIENT_ID, people sign in with GitHub (OAuth 2.1 for
   * `/mcp` and the REST API, the inspector's "Sign in with GitHub"; auth/oauth-origin).
   */
  GITHUB_APP_CLIENT_SECRET: optionalSecret,
  /** The App's private key as GitHub issues it (PKCS#1) or PKCS#8; checked when first used. */
  GITHUB_APP_PRIVATE_KEY: optionalSecret,
  /** The App's handle without `@`; a comment mentioning `@<handle>` starts a task. */
  GITHUB_APP_HANDLE: z.string().regex(/^[A-Za-z0-9-]+$/).default('groundwork'),
  GITHUB_WEBHOOK_SECRET: optionalSecret,
  /** The secret being rotated out; deliveries signed with it still verify. */
  GITHUB_WEBHOOK_SECRET_PREVIOUS: optionalSecret,
  SLACK_SIGNING_SECRET: optionalSecret,
  /** `{ "<Slack team id>": ["owner/repo", ...] }`: which repositories each team may target. */
  SLACK_TEAM_REPOS: jsonString(z.record(z.string(), z.array(z.string()))).default({}),
  /** JSON `{ "<provider>": { <its config fields>, budget?, enabled?: false } }`: this deployment's provider settings. */
  PROVIDER_CONFIG: jsonString(DeploymentSettingsSchema).default({}),
  /**
   * Set by `groundwork run`: `{ "file:///path": "http://127.0.0.1:PORT/repository.git" }`, the
   * local repositories this instance may read and the loopback smart-HTTP URL serving each.
   */
  LOCAL_REPOSITORIES: jsonString(z.record(z.string().regex(/^file:\/\/\//, 'keys must be file:/// URLs'), z.url())).default({}),
  /** Signs inspector links (`/tasks/:id/view?exp=…&sig=…`); without it only bearer tokens open pages. */
  VIEW_LINK_SECRET: optionalSecret,
  /** The view link secret being rotated out; links signed with it still open. */
  VIEW_LINK_SECRET_PREVIOUS: optionalSecret,
  /** Hours a view link stays valid; by default (and at most) as long as its task is retained. */
  VIEW_LINK_TTL_HOURS: z.coerce.number().int().positive().max(87_600).optional(),
  /** This service's public origin for links; by default the origin of the request (for check runs and Slack, the one that created the task). */
  PUBLIC_URL: z.url({ protocol: /^https?$/ }).transform((url) => new URL(url).origin).optional(),
  /**
   * Browser origins that may call `/mcp`, comma-separated (`https://app.example.com`), besides
   * the service's own (mcp/allowed-origin). A request with any other `Origin` header is refused
   * (DNS rebinding); clients that are not browsers send none.
   */
  MCP_ALLOWED_ORIGINS: z
    .string()
    .default('')
    .transform((text, ctx) =>
      text
        .split(',')
        .map((entry) => entry.trim())
        .filter((entry) => entry !== '')
        .flatMap((entry) => {
          const origin = URL.canParse(entry) ? new URL(entry).origin : 'null';
          if (origin !== 'null' && origin === entry.replace(/\/$/, '')) return [origin];
          ctx.addIssue({ code: 'custom', message: `${JSON.stringify(entry.slice(0, 100))} is not an origin (scheme://host[:port])` });
          return [];
        }),
    ),
  /** `{ "<API tenant>": ["github:<installation id>", "slack:<team id>"] }`: tenants whose tasks an API tenant may list and read. */
  TENANT_GRANTS: jsonString(TenantGrantsSchema).default({}),
}).superRefine((config, ctx) => {
  for (const tenant of Object.keys(config.TENANT_GRANTS)) {
    if (config.API_TOKENS[tenant] === undefined) ctx.addIssue({ code: 'custom', path: ['TENANT_GRANTS', tenant], message: `no API tenant ${tenant} in API_TOKENS` });
  }
});
export type Config = z.output<typeof ConfigSchema>;

export { ConfigError };

const parsed = new WeakMap<object, Config>();
const CONFIG_KEYS = Object.keys(ConfigSchema.shape);
/**
 * The last configuration parsed, by the values it was parsed from. Every Durable Object instance
 * gets an Env object of its own holding the same values, so without this each new task (one per
 * webhook delivery) parsed the whole configuration again in its accept path.
 */
let last: { values: unknown[]; config: Config } | undefined;

export function getConfig(env: Env): Config {
  const cached = parsed.get(env);
  if (cached) return cached;
  const values = CONFIG_KEYS.map((key) => (env as unknown as Record<string, unknown>)[key]);
  if (last && values.every((value, i) => value === last?.values[i])) {
    parsed.set(env, last.config);
    return last.config;
  }
  const result = ConfigSchema.safeParse(env);
  if (!result.success) {
    const fields = result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
    throw new ConfigError(`invalid configuration: ${fields}`, [...new Set(result.error.issues.map((issue) => issue.path.join('.')))]);
  }
  parsed.set(env, result.data);
  last = { values, config: result.data };
  return result.data;
}

/**
 * The agents this deployment offers: the built-ins with `agents.json` declared over them (see
 * deployment-agents). An invalid file is a ConfigError naming each wrong field, as invalid
 * variables are, so the service answers 503 `not_configured` instead of running without them.
 */
export function getAgents(file?: object): AgentCatalog {
  const loaded = loadDeploymentAgents(file);
  if (loaded.ok) return loaded.catalog;
  const fields = loaded.issues.map((issue) => `${issue.field}: ${issue.message}`).join('; ');
  throw new ConfigError(`invalid agents: ${fields}`, [...new Set(loaded.issues.map((issue) => issue.field))]);
}

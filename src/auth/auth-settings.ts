/**
 * @module auth/auth-settings
 * The four settings the authorization Worker (src/auth-worker.ts) reads: GITHUB_APP_CLIENT_ID,
 * GITHUB_APP_CLIENT_SECRET, PUBLIC_URL and GITHUB_API_URL, each taken and checked as the main
 * Worker's ConfigSchema (env.ts) takes it, so both Workers agree on where OAuth is offered
 * (test/auth/auth-settings holds them equal). Read here without env.ts: its schema is every
 * setting's, with the provider settings and agents it parses, and carried zod's classic API into
 * this upload to read four strings. A wrong setting is a ConfigError naming it and saying what is
 * wrong, which the pages answer with the 503 envelope naming the setting, as the main Worker does.
 */
import { ConfigError } from '../config-error.ts';

export interface AuthSettings {
  GITHUB_APP_CLIENT_ID?: string | undefined;
  GITHUB_APP_CLIENT_SECRET?: string | undefined;
  /** The origin of the PUBLIC_URL setting. */
  PUBLIC_URL?: string | undefined;
  GITHUB_API_URL: string;
}

const CLIENT_ID = /^[A-Za-z0-9._-]{1,100}$/;
const DEFAULT_GITHUB_API_URL = 'https://api.github.com';

type Read = { ok: true; value: string | undefined } | { ok: false; problem: string };

const read = new WeakMap<object, AuthSettings>();

/** The settings from `env`, read once per Env object; a ConfigError naming every wrong one. */
export function getAuthSettings(env: Env): AuthSettings {
  const known = read.get(env);
  if (known) return known;
  const values = env as unknown as Record<string, unknown>;
  const fields = {
    GITHUB_APP_CLIENT_ID: clientId(values['GITHUB_APP_CLIENT_ID']),
    GITHUB_APP_CLIENT_SECRET: secret(values['GITHUB_APP_CLIENT_SECRET']),
    PUBLIC_URL: publicUrl(values['PUBLIC_URL']),
    GITHUB_API_URL: url(values['GITHUB_API_URL']),
  };
  const wrong = Object.entries(fields).flatMap(([name, field]) => (field.ok ? [] : [{ name, problem: field.problem }]));
  if (wrong.length > 0) {
    throw new ConfigError(`invalid configuration: ${wrong.map(({ name, problem }) => `${name}: ${problem}`).join('; ')}`, wrong.map(({ name }) => name));
  }
  const value = (field: Read): string | undefined => (field.ok ? field.value : undefined);
  const settings: AuthSettings = {
    GITHUB_APP_CLIENT_ID: value(fields.GITHUB_APP_CLIENT_ID),
    GITHUB_APP_CLIENT_SECRET: value(fields.GITHUB_APP_CLIENT_SECRET),
    PUBLIC_URL: value(fields.PUBLIC_URL),
    GITHUB_API_URL: value(fields.GITHUB_API_URL) ?? DEFAULT_GITHUB_API_URL,
  };
  read.set(env, settings);
  return settings;
}

/** A string setting, or why the value is not one; absent (undefined) is allowed. */
function text(value: unknown, check: (text: string) => Read): Read {
  if (value === undefined) return { ok: true, value: undefined };
  if (typeof value !== 'string') return { ok: false, problem: `must be a string, not ${value === null ? 'null' : typeof value}` };
  return check(value);
}

const clientId = (value: unknown): Read =>
  text(value, (id) => (CLIENT_ID.test(id) ? { ok: true, value: id } : { ok: false, problem: 'must be a GitHub App client id: 1 to 100 letters, digits, dots, underscores or hyphens' }));

const secret = (value: unknown): Read => text(value, (set) => (set.length > 0 ? { ok: true, value: set } : { ok: false, problem: 'is empty; set a value or leave it unset' }));

/** As zod's `z.url()`: what the URL parser takes, trimmed, with tabs and newlines taken out. */
const url = (value: unknown): Read =>
  text(value, (raw) => {
    const trimmed = raw.trim();
    return URL.canParse(trimmed) ? { ok: true, value: withoutTabsOrNewlines(trimmed) } : { ok: false, problem: 'is not a URL' };
  });

/** As zod's `z.url({ protocol: /^https?$/ })` then its origin: an http(s) URL written with `://`. */
const publicUrl = (value: unknown): Read =>
  text(value, (raw) => {
    const trimmed = raw.trim();
    const parsed = /^https?:\/\//i.test(trimmed) ? URL.parse(trimmed) : null;
    if (parsed === null || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) return { ok: false, problem: 'is not an http(s) URL (https://host, or http://host for a local one)' };
    return { ok: true, value: new URL(withoutTabsOrNewlines(trimmed)).origin };
  });

function withoutTabsOrNewlines(value: string): string {
  return value.replace(/[\t\n\r]/g, '');
}

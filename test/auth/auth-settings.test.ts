/**
 * The authorization Worker reads its four settings without env.ts (auth/auth-settings): each is
 * taken as the main Worker's ConfigSchema takes it, so the two Workers agree on where OAuth is
 * offered, and a wrong one is refused naming the setting and what is wrong with it, never its value:
 * by the reader, by the authorization Worker's pages and endpoints (a 503 naming it) and by its RPC.
 */
import { env } from 'cloudflare:workers';
import { createExecutionContext } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { getAuthSettings } from '../../src/auth/auth-settings.ts';
import { ConfigError } from '../../src/config-error.ts';
import { ConfigSchema } from '../../src/env.ts';
import { app as authorizationWorkerApp } from '../../src/routes/groups/auth.ts';
import { OAUTH_ORIGIN } from '../support/oauth-browser.ts';

type Name = 'GITHUB_APP_CLIENT_ID' | 'GITHUB_APP_CLIENT_SECRET' | 'PUBLIC_URL' | 'GITHUB_API_URL';

/** An Env with `values` over nothing else: only the setting under test is set. */
const envWith = (values: Record<string, unknown>): Env => ({ ...values }) as unknown as Env;

const INPUTS: Record<Name, unknown[]> = {
  GITHUB_APP_CLIENT_ID: [undefined, 'Iv23liAbC.d_e-f', '', 'a'.repeat(100), 'a'.repeat(101), 'has space', 'ünïcode', 42, null],
  GITHUB_APP_CLIENT_SECRET: [undefined, 's3cret', ' ', '', 7, false],
  PUBLIC_URL: [
    undefined,
    'https://groundwork.example.com',
    'https://groundwork.example.com/some/path?q=1#f',
    'HTTPS://Groundwork.Example.COM:443/',
    'http://localhost:8787',
    '  https://padded.example.com  ',
    'https://tab\t.example.com',
    'http:example.com',
    'https:/one-slash.example.com',
    'ftp://files.example.com',
    'javascript:alert(1)',
    'not a url',
    '',
    'https://',
    8787,
  ],
  GITHUB_API_URL: [undefined, 'https://api.github.com', 'https://ghe.example.com/api/v3', ' https://ghe.example.com/api/v3\n', 'mailto:someone@example.com', 'not a url', '', 'https://', {}],
};

describe("the authorization Worker's settings", () => {
  for (const [name, inputs] of Object.entries(INPUTS) as Array<[Name, unknown[]]>) {
    it(`takes and refuses ${name} as the main Worker's configuration does`, () => {
      for (const input of inputs) {
        const main = ConfigSchema.shape[name].safeParse(input);
        let ours: { ok: true; value: unknown } | { ok: false; error: unknown };
        try {
          ours = { ok: true, value: getAuthSettings(envWith({ [name]: input }))[name] };
        } catch (error) {
          ours = { ok: false, error };
        }
        const label = `${name} = ${JSON.stringify(input)}`;
        expect(ours.ok, label).toBe(main.success);
        if (ours.ok && main.success) expect(ours.value, label).toEqual(main.data);
        if (!ours.ok) {
          expect(ours.error, label).toBeInstanceOf(ConfigError);
          expect((ours.error as ConfigError).fields, label).toEqual([name]);
        }
      }
    });
  }

  it('names every wrong setting and what is wrong with it, never its value', () => {
    const wrong = envWith({ GITHUB_APP_CLIENT_ID: 'has space', GITHUB_APP_CLIENT_SECRET: '', PUBLIC_URL: 'ftp://files.example.com', GITHUB_API_URL: 'https://api.github.com' });
    let error: unknown;
    try {
      getAuthSettings(wrong);
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).fields).toEqual(['GITHUB_APP_CLIENT_ID', 'GITHUB_APP_CLIENT_SECRET', 'PUBLIC_URL']);
    expect((error as ConfigError).message).toBe(
      'invalid configuration: GITHUB_APP_CLIENT_ID: must be a GitHub App client id: 1 to 100 letters, digits, dots, underscores or hyphens; ' +
        'GITHUB_APP_CLIENT_SECRET: is empty; set a value or leave it unset; ' +
        'PUBLIC_URL: is not an http(s) URL (https://host, or http://host for a local one)',
    );
    expect((error as ConfigError).message).not.toContain('has space');
    expect((error as ConfigError).message).not.toContain('files.example.com');
    expect(() => getAuthSettings(envWith({ GITHUB_API_URL: 12 }))).toThrow('invalid configuration: GITHUB_API_URL: must be a string, not number');
  });

  it("answers the authorization Worker's pages and endpoints 503 naming a wrong PUBLIC_URL, never a 500", async () => {
    const misconfigured = { ...env, PUBLIC_URL: 'ftp://files.example.com' } as Env;
    for (const path of ['/authorize?client_id=x', '/signin', '/.well-known/oauth-authorization-server']) {
      const response = await authorizationWorkerApp.fetch(new Request(`${OAUTH_ORIGIN}${path}`), misconfigured, createExecutionContext());
      expect(response.status, path).toBe(503);
      const { error } = await response.json<{ error: { code: string; message: string } }>();
      expect(error, path).toMatchObject({ code: 'not_configured', message: 'the service is not configured for this request: check PUBLIC_URL' });
    }
  });
});

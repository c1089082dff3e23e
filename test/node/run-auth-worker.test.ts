// `groundwork run` starts the built uploads in Miniflare (src/cli/run/worker-host): the main Worker
// and, beside it, the authorization Worker its AUTH_SERVER binding names, so a person can sign in
// to the local instance as to a deployment. The main Worker carries no authorization server, so a
// discovery document answered here came through the binding.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findWorkerBundle, startWorker, type WorkerHost } from '../../src/cli/run/worker-host.ts';

const BOOT_TIMEOUT = 120_000;

describe('groundwork run with the authorization Worker', () => {
  let state: string;
  let host: WorkerHost;
  const logs: string[] = [];

  beforeAll(async () => {
    state = mkdtempSync(join(tmpdir(), 'groundwork-run-auth-'));
    const bundle = findWorkerBundle();
    if (!bundle.ok) throw new Error(bundle.reason);
    expect(bundle.auth.dir).toMatch(/dist[\\/]auth-worker$/);
    host = await startWorker(bundle, {
      stateDir: state,
      bindings: { GITHUB_APP_CLIENT_ID: 'Iv1.run-auth-test', GITHUB_APP_CLIENT_SECRET: 'run-auth-test-secret', API_TOKENS: 'local=run-auth-test-token-0123456789' },
      onLog: (level, message) => logs.push(`${level}: ${message}`),
    });
  }, BOOT_TIMEOUT);

  afterAll(async () => {
    await host?.dispose();
    rmSync(state, { recursive: true, force: true });
  });

  it("answers the authorization server's discovery document through the binding, on the local origin", async () => {
    const origin = host.url.origin;
    const response = await fetch(`${origin}/.well-known/oauth-authorization-server`);
    expect(response.status, logs.join('\n')).toBe(200);
    expect(await response.json()).toMatchObject({ issuer: origin, authorization_endpoint: `${origin}/authorize`, token_endpoint: `${origin}/oauth/token` });
  });

  it("asks the authorization Worker about a person's token (refused: it never issued it) and takes an API token itself", async () => {
    const origin = host.url.origin;
    const person = await fetch(`${origin}/tasks?limit=1`, { headers: { authorization: 'Bearer 1:2:not-a-token-it-issued' } });
    expect(person.status).toBe(401);
    expect(person.headers.get('www-authenticate')).toContain(`resource_metadata="${origin}/.well-known/oauth-protected-resource"`);
    const machine = await fetch(`${origin}/tasks?limit=1`, { headers: { authorization: 'Bearer run-auth-test-token-0123456789' } });
    expect(machine.status).toBe(200);
  });
});

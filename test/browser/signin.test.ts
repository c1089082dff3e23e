/**
 * Signing in to the inspector with GitHub in a real browser: the Worker under `wrangler dev` (an
 * http loopback origin, where OAuth is offered for development), GitHub played by the GitHub API
 * test server of the global setup, Chromium following every redirect itself. The person's task is
 * made first as an MCP client would make it: the official SDK's OAuth flow, then the REST API
 * with their access token. Screenshots go to test-results/ (docs/ with GROUNDWORK_SCREENSHOTS=docs).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import * as z from 'zod';
import { startWranglerDev, type WranglerDev } from '../../bench/wrangler-dev.ts';
import { createGitHubUser } from '../support/github-api-client.ts';
import { signInWith } from '../support/oauth-flow.ts';
import { launchChromium } from './chromium.ts';

const TOKEN = 'browser-signin-token-0123456789';
const RESULTS = join(import.meta.dirname, '..', '..', 'test-results');
const DOCS = process.env.GROUNDWORK_SCREENSHOTS === 'docs' ? join(import.meta.dirname, '..', '..', 'docs') : RESULTS;

let worker: WranglerDev;
let browser: Browser;
let githubRoot: string;
let login: string;
let taskId: string;

beforeAll(async () => {
  const fixture = inject('githubFixture');
  githubRoot = `http://127.0.0.1:${inject('githubApiPort')}/s/browser-signin`;
  worker = await startWranglerDev({
    API_TOKENS: `browser=${TOKEN}`,
    VIEW_LINK_SECRET: 'browser-signin-view-link-secret',
    GITHUB_API_URL: githubRoot,
    GITHUB_APP_CLIENT_ID: fixture.appClientId,
    GITHUB_APP_CLIENT_SECRET: fixture.appClientSecret,
    GITHUB_APP_PRIVATE_KEY: fixture.keyPkcs1,
  });
  login = `chromium-${crypto.randomUUID().slice(0, 8)}`;
  await createGitHubUser({ login, access: { [`${fixture.owner}/${fixture.repo}`]: 'read' } });
  // The person's own task, made as an MCP client's person would make it.
  const { tokens } = await signInWith({ send: fetch, origin: worker.origin, githubWebRoot: githubRoot }, login, `${worker.origin}/tasks`);
  const created = await fetch(`${worker.origin}/tasks`, {
    method: 'POST',
    headers: { authorization: `Bearer ${tokens.access_token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ repo: `${fixture.owner}/${fixture.repo}`, request: 'Explain the rules of this repository.' }),
  });
  expect(created.status, await created.clone().text()).toBe(202);
  taskId = z.object({ id: z.string() }).parse(await created.json()).id;
  const deadline = Date.now() + 60_000;
  for (;;) {
    const task = z.object({ status: z.string() }).parse(await (await fetch(`${worker.origin}/tasks/${taskId}`, { headers: { authorization: `Bearer ${tokens.access_token}` } })).json());
    if (task.status === 'ready') break;
    if (task.status === 'failed' || Date.now() > deadline) throw new Error(`task ${taskId} is ${task.status}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  browser = await launchChromium();
  mkdirSync(RESULTS, { recursive: true });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await worker?.stop();
});

describe('the inspector in Chromium, signed in with GitHub', () => {
  it('signs in from the page that asked, shows the task as the person, and signs out', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    // The browser is signed in to GitHub (the test server's session cookie).
    await context.addCookies([{ name: 'github_session', value: login, url: githubRoot }]);
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') problems.push(`console ${message.type()}: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));

    const asked = await page.goto(`${worker.origin}/tasks/${taskId}/view`);
    expect(asked?.status()).toBe(401);
    await page.getByRole('link', { name: 'Sign in with GitHub' }).click();
    await page.waitForURL(`${worker.origin}/tasks/${taskId}/view`);
    expect(await page.locator('#task-title').count()).toBe(1);
    expect(await page.locator('.account').textContent()).toContain(`Signed in as @${login}`);
    const session = (await context.cookies(worker.origin)).find((cookie) => cookie.name === '__Host-groundwork-session');
    expect(session).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Lax', path: '/' });
    await page.screenshot({ path: join(DOCS, 'inspector-signed-in.png') });

    await page.goto(`${worker.origin}/view`);
    expect(await page.locator(`tbody a[href="/tasks/${taskId}/view"]`).count()).toBeGreaterThanOrEqual(1);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${worker.origin}/view`);
    expect(await page.locator('h1').textContent()).toBe('Not signed in');
    expect(await page.getByRole('link', { name: 'Sign in with GitHub' }).count()).toBe(1);
    expect((await context.cookies(worker.origin)).some((cookie) => cookie.name === '__Host-groundwork-session')).toBe(false);
    // Chromium logs every 4xx document: the page before signing in, and the list after signing out.
    expect(problems.filter((problem) => !problem.includes('status of 401'))).toEqual([]);
    await context.close();
  });
});

/**
 * @module test/support/oauth-browser
 * The sign-in browser of test/support/cookie-browser in workerd: requests to the Worker's origin
 * that offers OAuth (`https://groundwork.test`: auth/oauth-origin) go through its real entry, any
 * other to the network (the GitHub API test server on loopback).
 */
import { exports } from 'cloudflare:workers';
import { inject } from 'vitest';
import { E2E_SCOPE } from '../e2e/bindings.ts';
import { cookieBrowser, type Browser } from './cookie-browser.ts';

export { formField, type Browser } from './cookie-browser.ts';

/** Where the Worker offers OAuth in the tests: an https origin (http://groundwork.test does not). */
export const OAUTH_ORIGIN = 'https://groundwork.test';

/** The Worker for its own origin, the network (the loopback GitHub server) for any other. */
export function route(url: string | URL, init?: RequestInit): Promise<Response> {
  const target = String(url);
  return new URL(target).origin === OAUTH_ORIGIN ? exports.default.fetch(target, init) : fetch(target, init);
}

/** The local GitHub server's web root, as the Worker derives it from GITHUB_API_URL. */
export function githubWebRoot(): string {
  return `http://127.0.0.1:${inject('githubApiPort')}/s/${E2E_SCOPE}`;
}

export function browser(githubLogin?: string): Browser {
  return cookieBrowser(route, githubWebRoot(), githubLogin);
}

/**
 * @module test/e2e/bindings
 * The secrets and GitHub App settings the `workers` project binds, so that end-to-end tests drive
 * the real Worker entry and the real Task objects as a deployment would be configured. Loaded by
 * vitest.config.ts in Node and by the tests in workerd, so it imports nothing at runtime.
 *
 * The trigger tests under test/triggers call their own app with their own env (testEnv), which
 * overrides every secret here and deletes them for its 503 cases, so these values do not change
 * what those tests see.
 */
import type { GitHubFixture } from '../support/github-api-client.ts';

/** The local GitHub API server's scope the Worker's GITHUB_API_URL points into. */
export const E2E_SCOPE = 'worker-e2e';
export const E2E_WEBHOOK_SECRET = 'e2e-webhook-secret';
export const E2E_PREVIOUS_WEBHOOK_SECRET = 'e2e-previous-webhook-secret';
export const E2E_SLACK_SECRET = 'e2e-slack-signing-secret';
export const E2E_SLACK_TEAM = 'TE2E0001';
/** A workspace allowed every repository of the fixture's owner (`owner/*`). */
export const E2E_SLACK_WILDCARD_TEAM = 'TE2E0002';

/**
 * @example
 * miniflare: { bindings: { ...triggerBindings(inject('githubApiPort'), inject('githubFixture')) } }
 */
export function triggerBindings(githubApiPort: number, fixture: GitHubFixture): Record<string, string> {
  return {
    GITHUB_WEBHOOK_SECRET: E2E_WEBHOOK_SECRET,
    GITHUB_WEBHOOK_SECRET_PREVIOUS: E2E_PREVIOUS_WEBHOOK_SECRET,
    SLACK_SIGNING_SECRET: E2E_SLACK_SECRET,
    SLACK_TEAM_REPOS: JSON.stringify({ [E2E_SLACK_TEAM]: [`${fixture.owner}/${fixture.repo}`], [E2E_SLACK_WILDCARD_TEAM]: [`${fixture.owner}/*`] }),
    // The issuer GitHub recommends, and the key as GitHub issues it pasted into one env line.
    GITHUB_APP_CLIENT_ID: fixture.appClientId,
    GITHUB_APP_PRIVATE_KEY: fixture.keyPkcs1.replace(/\n/g, '\\n'),
    // People sign in with GitHub (OAuth) where a request reaches an https origin: the tests of
    // auth/ use https://groundwork.test; every other test's http://groundwork.test takes API tokens only.
    GITHUB_APP_CLIENT_SECRET: fixture.appClientSecret,
    // No GITHUB_TOKEN: every owner/name read in these tests must go through the App installation.
    GITHUB_API_URL: `http://127.0.0.1:${githubApiPort}/s/${E2E_SCOPE}`,
  };
}

export const E2E_VIEW_LINK_SECRET = 'e2e-view-link-secret';
export const E2E_PREVIOUS_VIEW_LINK_SECRET = 'e2e-previous-view-link-secret';
/** The API tenant granted the App installation and the first Slack team (TENANT_GRANTS); globex is granted nothing. */
export const E2E_GRANTED_TENANT = 'acme';

/**
 * Signed view links (with a secret being rotated out) and the grants of the inspector.
 *
 * @example
 * miniflare: { bindings: { ...inspectorBindings(inject('githubFixture')) } }
 */
export function inspectorBindings(fixture: GitHubFixture): Record<string, string> {
  return {
    VIEW_LINK_SECRET: E2E_VIEW_LINK_SECRET,
    VIEW_LINK_SECRET_PREVIOUS: E2E_PREVIOUS_VIEW_LINK_SECRET,
    TENANT_GRANTS: JSON.stringify({ [E2E_GRANTED_TENANT]: [`github:${fixture.installationId}`, `slack:${E2E_SLACK_TEAM}`] }),
  };
}

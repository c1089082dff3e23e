import { cloudflareTest } from '@cloudflare/vitest-plugin';
import { defineConfig } from 'vitest/config';
import { inspectorBindings, triggerBindings } from './test/e2e/bindings.ts';
import { boundsBindings } from './test/bounds/bindings.ts';
import { TEST_API_TOKENS } from './test/support/api-tokens.ts';
import { TEST_LOCAL_REPOSITORIES } from './test/support/local-repositories.ts';
import type { GitHubFixture } from './test/support/github-api-client.ts';

type ExtraBindings = (githubApiPort: number, fixture: GitHubFixture) => Record<string, string>;

/** A project running the Worker in workerd with the deployment bindings plus `extra`. */
function workersProject(name: string, include: string[], exclude: string[], extra: ExtraBindings = () => ({})) {
  return {
    plugins: [
      // A function, so the GitHub API server's port and App key from global setup can be bound.
      cloudflareTest(async ({ inject }) => ({
        wrangler: { configPath: './wrangler.toml' },
        miniflare: {
          bindings: {
            API_TOKENS: Object.entries(TEST_API_TOKENS).map(([tenant, token]) => `${tenant}=${token}`).join(','),
            // Every git server of the tests listens on loopback.
            GIT_ALLOWED_HOSTS: '127.0.0.1',
            LOCAL_REPOSITORIES: JSON.stringify(TEST_LOCAL_REPOSITORIES),
            ...triggerBindings(inject('githubApiPort'), inject('githubFixture')),
            ...inspectorBindings(inject('githubFixture')),
            ...extra(inject('githubApiPort'), inject('githubFixture')),
          },
        },
      })),
    ],
    // The first test of a file also pays for loading the Worker bundle into workerd, which on a
    // shared two-core machine can exceed vitest's 5 s default; assertions about time live in
    // `npm run bench`, so a generous ceiling only catches hangs.
    test: { name, include, exclude, testTimeout: 30_000, hookTimeout: 60_000 },
  };
}

// Four projects, one run and one report: Worker code in workerd (as deployed, and with short
// time and size bounds for the tests that hit them), CLI code in Node, the inspector in Chromium.
export default defineConfig({
  test: {
    globalSetup: ['./test/setup/git-http-server.ts', './test/setup/github-server.ts', './test/setup/hooks-server.ts'],
    projects: [
      workersProject('workers', ['test/**/*.test.ts'], ['test/node/**', 'test/bounds/**', 'test/browser/**']),
      workersProject('workers-bounds', ['test/bounds/**/*.test.ts'], [], boundsBindings),
      {
        // Node tests start real processes (the CLI, git); on a loaded machine that can pass 5 s.
        test: { name: 'node', environment: 'node', include: ['test/node/**/*.test.ts'], testTimeout: 30_000 },
      },
      {
        // Chromium against the Worker under `wrangler dev`, which takes a while to bundle and start.
        test: { name: 'browser', environment: 'node', include: ['test/browser/**/*.test.ts'], testTimeout: 120_000, hookTimeout: 120_000 },
      },
    ],
  },
});

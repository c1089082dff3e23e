import { cloudflareTest } from '@cloudflare/vitest-plugin';
import { defineConfig } from 'vitest/config';
import { inspectorBindings, triggerBindings } from './test/e2e/bindings.ts';
import { TEST_API_TOKENS } from './test/support/api-tokens.ts';


// Two projects, one run and one report: Worker code in workerd, CLI code in Node.
export default defineConfig({
  test: {
    globalSetup: ['./test/setup/git-http-server.ts', './test/setup/github-server.ts', './test/setup/hooks-server.ts'],
    projects: [
      {
        plugins: [
          // A function, so the GitHub API server's port and App key from global setup can be bound.
          cloudflareTest(async ({ inject }) => ({
            wrangler: { configPath: './wrangler.toml' },
            miniflare: {
              bindings: {
                API_TOKENS: Object.entries(TEST_API_TOKENS).map(([tenant, token]) => `${tenant}=${token}`).join(','),
                // Every git server of the tests listens on loopback.
                GIT_ALLOWED_HOSTS: '127.0.0.1',
                ...triggerBindings(inject('githubApiPort'), inject('githubFixture')),
                ...inspectorBindings(inject('githubFixture')),
              },
            },
          })),
        ],
        // The first test of a file also pays for loading the Worker bundle into workerd, which on a
        // shared two-core machine can exceed vitest's 5 s default; assertions about time live in
        // `npm run bench`, so a generous ceiling only catches hangs.
        test: { name: 'workers', include: ['test/**/*.test.ts'], exclude: ['test/node/**', 'test/browser/**'], testTimeout: 30_000, hookTimeout: 60_000 },
      },
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

import { cloudflareTest } from '@cloudflare/vitest-plugin';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { inspectorBindings, triggerBindings } from './test/e2e/bindings.ts';
import { boundsBindings } from './test/bounds/bindings.ts';
import { TEST_API_TOKENS } from './test/support/api-tokens.ts';
import { authWorker } from './test/setup/auth-worker.ts';
import { TEST_LOCAL_REPOSITORIES } from './test/support/local-repositories.ts';
import type { GitHubFixture } from './test/support/github-api-client.ts';
import { WORKER_ALIASES } from './scripts/worker-aliases.ts';

/**
 * The Worker build's stand-ins (scripts/worker-aliases), so the tests run the module graph the
 * upload carries. Exact names only: vite's string keys would also catch `pako/lib/inflate.js`.
 */
const BUNDLE_ALIASES = Object.entries(WORKER_ALIASES).map(([name, path]) => ({
  find: new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`),
  replacement: fileURLToPath(new URL(path, import.meta.url)),
}));

type ExtraBindings = (githubApiPort: number, fixture: GitHubFixture) => Record<string, string>;

/** A project running the Worker in workerd with the deployment bindings plus `extra`. */
function workersProject(name: string, include: string[], exclude: string[], isolate: boolean, extra: ExtraBindings = () => ({})) {
  return {
    plugins: [
      // A function, so the GitHub API server's port and App key from global setup can be bound.
      cloudflareTest(async ({ inject }) => {
        const bindings = {
          API_TOKENS: Object.entries(TEST_API_TOKENS).map(([tenant, token]) => `${tenant}=${token}`).join(','),
          // Every git server of the tests listens on loopback.
          GIT_ALLOWED_HOSTS: '127.0.0.1',
          LOCAL_REPOSITORIES: JSON.stringify(TEST_LOCAL_REPOSITORIES),
          ...triggerBindings(inject('githubApiPort'), inject('githubFixture')),
          ...inspectorBindings(inject('githubFixture')),
          ...extra(inject('githubApiPort'), inject('githubFixture')),
        };
        return {
          // The sources, which vite transforms; wrangler.toml's `main` is the build's output.
          main: './src/index.ts',
          wrangler: { configPath: './wrangler.toml' },
          miniflare: {
            bindings,
            // The authorization Worker (built), which wrangler.toml's AUTH_SERVER binding names; its
            // settings are the main Worker's, as docs/deploy.md says to set them on both.
            workers: [authWorker(bindings)],
          },
        };
      }),
    ],
    resolve: { alias: BUNDLE_ALIASES },
    // The first test of a runner also pays for loading the Worker into workerd, which on a shared
    // two-core machine can exceed vitest's 5 s default; assertions about time live in
    // `npm run bench`, so a generous ceiling only catches hangs.
    test: { name, include, exclude, isolate, testTimeout: 30_000, hookTimeout: 60_000 },
  };
}

/**
 * Files that assert about everything a binding holds (every Task object that exists, a tenant's
 * whole task list, a token exchange no earlier file cached), so they need storage of their own:
 * each runs in a fresh runner (Miniflare, storage, module cache). Every other Worker file shares
 * one runner per worker and must not depend on what another file stored: an isolated runner costs
 * ~3 s of Worker import per file, which was half of the suite's time (issue 28).
 */
const OWN_STORAGE = [
  'test/e2e/github-comment-order.test.ts',
  'test/e2e/github-history.test.ts',
  'test/e2e/github-load.test.ts',
  'test/e2e/github-monorepo.test.ts',
  'test/e2e/github-pull-request.test.ts',
  'test/e2e/slack-command.test.ts',
  'test/inspector/task-list.test.ts',
  'test/knowledge/memory-provider.test.ts',
  'test/mcp/remote-tools.test.ts',
  'test/security/git-url-credentials.test.ts',
  'test/security/repo-names.test.ts',
  'test/security/webhook-replay.test.ts',
  'test/tasks/agents-api.test.ts',
  'test/tasks/focus-api.test.ts',
  'test/tasks/host-facts-api.test.ts',
  'test/tasks/provider-settings-api.test.ts',
  'test/tasks/task-intake.test.ts',
  'test/triggers/github-comment.test.ts',
  'test/triggers/notify.test.ts',
];
const NOT_WORKERS = ['test/node/**', 'test/bounds/**', 'test/browser/**'];

/**
 * Files run two at a time even on two cores, where vitest's default (cores - 1) runs one: most of a
 * file's time is spent waiting on other processes (workerd, the CLI, git, npm, Chromium) and on the
 * global setup's servers, so one file at a time left a core idle (the run used ~1.1 of 2) and the
 * suite took ~9.5 min. Tests hold what they wait on and name what they make (docs/development.md),
 * so two files running side by side see the same.
 */
const MAX_WORKERS = Math.max(2, availableParallelism() - 1);

// Five projects, one run and one report: Worker code in workerd (as deployed, sharing runners or
// with storage of its own, and with short time and size bounds for the tests that hit them), CLI
// code in Node, the inspector in Chromium.
export default defineConfig({
  test: {
    maxWorkers: MAX_WORKERS,
    globalSetup: ['./test/setup/auth-worker.ts', './test/setup/git-http-server.ts', './test/setup/github-server.ts', './test/setup/hooks-server.ts'],
    projects: [
      workersProject('workers', ['test/**/*.test.ts'], [...NOT_WORKERS, ...OWN_STORAGE], false),
      workersProject('workers-own-storage', OWN_STORAGE, [], true),
      workersProject('workers-bounds', ['test/bounds/**/*.test.ts'], [], false, boundsBindings),
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

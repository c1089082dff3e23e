import { cloudflareTest } from '@cloudflare/vitest-plugin';
import { defineConfig } from 'vitest/config';

// Two projects, one run and one report: Worker code in workerd, CLI code in Node.
export default defineConfig({
  test: {
    globalSetup: [],
    projects: [
      {
        plugins: [cloudflareTest({ wrangler: { configPath: './wrangler.toml' } })],
        test: { name: 'workers', include: ['test/**/*.test.ts'], exclude: ['test/node/**'] },
      },
      {
        test: { name: 'node', environment: 'node', include: ['test/node/**/*.test.ts'] },
      },
    ],
  },
});

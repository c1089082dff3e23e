// The Worker's upload is split so that a cold isolate evaluates only the code of what it serves
// (scripts/worker-build, src/index.ts): start-up evaluates the entry alone, and a webhook
// delivery, the accept path GitHub times, loads its route group and its intake shard's module but
// none of the assembly code, nor the Task object it is handed to after the answer. One static import in the wrong module undoes that without failing anything
// else; this reads the real build's module graph and fails, naming the chain, when it happens.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Metafile } from 'esbuild';
import { builtMetafile, FIRST_USES, outputBytes, staticReach } from '../../bench/upload-reach.ts';

/** What only assembly, pages, MCP and checks use: none of it belongs to a delivery's first use. */
const NOT_ON_THE_ACCEPT_PATH = [
  'src/sources/git/smart-http.ts',
  'src/sources/git/pack-index.ts',
  'node_modules/js-yaml/',
  'node_modules/@octokit/',
  'src/providers/registry.ts',
  'src/context/runner.ts',
  'src/context/render.ts',
  'src/views/',
  'src/inspector/',
  'src/mcp/',
  'src/checks/run-check.ts',
  'src/notify/notify-task.ts',
  'durable-objects/task-wiring.ts',
  'node_modules/@cloudflare/workers-oauth-provider/',
];

let metafile: Metafile;
let authMetafile: Metafile;
beforeAll(async () => {
  [metafile, authMetafile] = await Promise.all([builtMetafile(), builtMetafile('src/auth-worker.ts')]);
}, 60_000);

/** The authorization server's own code: the authorization Worker's (src/auth-worker.ts), never the main upload's. */
const AUTHORIZATION_SERVER = ['src/auth/oauth-server.ts', 'src/routes/auth.tsx', 'src/routes/groups/auth.ts', 'src/views/consent-page.tsx', 'src/auth-worker.ts'];

/** The import chain from `roots` to the first module `matches` finds, for the failure message. */
function chainTo(roots: readonly string[], matches: (module: string) => boolean): string {
  const previous = new Map<string, string | null>(roots.map((root) => [root, null]));
  const queue = [...roots];
  for (let module = queue.shift(); module !== undefined; module = queue.shift()) {
    if (matches(module)) {
      const chain: string[] = [];
      for (let at: string | null | undefined = module; at; at = previous.get(at)) chain.unshift(at);
      return chain.join(' -> ');
    }
    for (const imported of metafile.inputs[module]?.imports ?? []) {
      if (imported.external || imported.kind === 'dynamic-import' || previous.has(imported.path)) continue;
      previous.set(imported.path, module);
      queue.push(imported.path);
    }
  }
  return '';
}

describe("the Worker upload's module graph", () => {
  it('evaluates no zod at start-up: the entry holds the fetch handler and the Durable Object fronts', () => {
    const roots = FIRST_USES['start-up'];
    expect(chainTo(roots, (module) => module.includes('node_modules/zod/'))).toBe('');
    expect([...staticReach(metafile, roots)].filter((module) => module.startsWith('src/') || module.startsWith('durable-objects/')).length).toBeLessThan(12);
  });

  it("loads none of the assembly, pages, MCP or checks code for a webhook delivery's first use", () => {
    const roots = FIRST_USES['a webhook delivery'];
    const found = [...NOT_ON_THE_ACCEPT_PATH, 'durable-objects/task.ts'].map((prefix) => chainTo(roots, (module) => module.startsWith(prefix))).filter((chain) => chain !== '');
    expect(found).toEqual([]);
  });

  it('creates the Task object after the answer without the assembly code either', () => {
    const roots = FIRST_USES['a delivery handed on (its Task object)'];
    const found = NOT_ON_THE_ACCEPT_PATH.map((prefix) => chainTo(roots, (module) => module.startsWith(prefix))).filter((chain) => chain !== '');
    expect(found).toEqual([]);
  });

  it("serves an API token's REST call, MCP call and task page without the OAuth provider, and forwards a sign-in without it", () => {
    const provider = 'node_modules/@cloudflare/workers-oauth-provider/';
    for (const use of ['GET /tasks', 'an MCP tool call', 'a task page', 'a sign-in (forwarded)'] as const) expect(chainTo(FIRST_USES[use], (module) => module.startsWith(provider)), use).toBe('');
    // The forward is a few lines: not even the settings' zod loads with it (only where no binding is).
    expect(chainTo(FIRST_USES['a sign-in (forwarded)'], (module) => module.includes('node_modules/zod/'))).toBe('');
    // Only a person's token loads it: the resource server, whose token check is the binding's RPC.
    expect(staticReach(metafile, FIRST_USES["a person's token (the resource server)"]).has(`${provider}dist/oauth-provider.js`)).toBe(true);
  });

  it("carries no authorization server: its code and most of the provider are the authorization Worker's upload", () => {
    const provider = 'node_modules/@cloudflare/workers-oauth-provider/dist/oauth-provider.js';
    expect(AUTHORIZATION_SERVER.filter((module) => metafile.inputs[module] !== undefined)).toEqual([]);
    const authReach = staticReach(authMetafile, ['src/auth-worker.ts']);
    expect(AUTHORIZATION_SERVER.filter((module) => !authReach.has(module))).toEqual([]);
    // It reads its four settings itself (auth/auth-settings): the main Worker's configuration
    // schema, with every provider's settings and the agents, is not in its upload.
    expect(authReach.has('src/auth/auth-settings.ts')).toBe(true);
    expect(Object.keys(authMetafile.inputs).filter((module) => module === 'src/env.ts' || module.startsWith('src/providers/'))).toEqual([]);
    // OAuthResourceServer and OAuthError alone (8.8 KiB minified) against what the authorization
    // Worker needs of it (117.8): esbuild shook the authorization server out of this upload.
    const here = outputBytes(metafile, new Set([provider]));
    expect(here).toBeGreaterThan(0);
    expect(here).toBeLessThan(outputBytes(authMetafile, new Set([provider])) / 4);
  });

  it('loads the assembly code with the wiring, so the check above would see it if it moved', () => {
    const reach = staticReach(metafile, FIRST_USES['the first assembly (a Task object)']);
    expect(reach.has('src/providers/registry.ts')).toBe(true);
    expect([...reach].some((module) => module.startsWith('node_modules/js-yaml/'))).toBe(true);
    expect(reach.has('src/sources/git/pack-index.ts')).toBe(true);
  });

  it('carries no isomorphic-git, pako or sha.js: the remote git source is our own code (src/sources/git/smart-http.ts, pack-index.ts)', () => {
    const packages = Object.keys(metafile.inputs).filter((module) => /node_modules\/(isomorphic-git|pako|sha\.js|crc-32|async-lock)\//.test(module));
    expect(packages).toEqual([]);
  });
});

// Builds the Worker's upload as wrangler.toml's `[build]` does (scripts/worker-build: the entry and
// the chunks it loads on first use) and fails when the upload is above the budget, its modules
// gzipped together as wrangler counts them, or when it carries zod's locales or its JSON Schema
// converter again. The authorization Worker (wrangler.auth.toml, src/auth-worker.ts) is a second
// upload with a budget of its own (AUTH_BUDGET_KIB below), so it cannot grow unseen either.
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildWorker, JSON_SCHEMA_STAND_IN, uploadSize } from '../scripts/worker-build.ts';

// 320 with all 64 of zod's locales in it (316.5); 250.6 once every module imported zod as a
// namespace. The margin is for this wave's features: 265 -> 268 when the checks before an action
// (issue 26: four actions, their answers' schemas, GitHub's checks and reviews, the record; about
// 9 KiB gzipped) met the rule formats of issue 23 at 267.2; 268 -> 272 when host agents, facts and
// history (issue 29, about 4.4 KiB) joined them at 271.6; 272 -> 280 for issue 27 at 279.6 (the
// inspector's context-window picture, budgets and cache views, the usage route and its vendor
// schemas, nested skill roots and the index ranking; about 8 KiB); 280 -> 281 when issue 28's lazy
// loaders met them at 280.0 (esbuild's wrappers for the modules loaded on first use); 281 -> 283
// for issue 24 at 282.3 (one repository identity, the transcript writer's cap, the YAML 1.2 reader,
// the bounded task page, about 2.3 KiB); 283 -> 269 at 268.5 once the client was @octokit/core
// instead of @octokit/rest (every call is `request` or `graphql`, so the REST plugin's endpoint
// table, 82 KiB minified, was dead weight); 269 -> 276 at 275.3 for issue 23's focus (focus paths on
// tasks and POST /tasks/:id/paths, the pull request's files listed once by the host, every focus
// chain's rules with their bound, budget and notices, later-turn rules and skills, the focus table);
// 276 -> 277 at 276.7 for agent-requested rules asked for by name on POST /tasks/:id/paths.
// Cloudflare itself allows 3 MiB (Free) or 10 MiB (Paid): the budget is ours, to keep cold starts small.
// 277 -> 314 with the remote MCP server (/mcp, issue 25) at 313.6: the official SDK's server and
// web-standard transport (about 20 KiB gzipped), zod's JSON Schema output for tools/list (about 6)
// and the tools (about 6); +36.9 over main at 276.7 when it was merged. Ajv and zod 3, which the
// SDK imports but the Worker never runs, are aliased out (wrangler.toml).
// 314 -> 275 at 273.5 (issue 28): pako's inflate half only and no typed-array polyfill (313.6 ->
// 299.9, wrangler.toml [alias]), then the MCP protocol as our own code instead of the SDK's server
// and transport (299.9 -> 273.5; Ajv and zod 3 need no aliases any more). 275 -> 274 at 273.0:
// @octokit/auth-app's OAuth strategies aliased out (wrangler.toml; 275.4 -> 273.0), which also
// made room for review tasks listing themselves in their pull request's index; 274 -> 271 at
// 269.9: isomorphic-git's .gitignore and merge helpers (ignore, diff3) aliased out, which the
// bundle loaded but never called (the Worker only fetches and reads objects); 271 -> 270 at
// 268.3: GitHub's answers parsed with JSON.parse, not json-with-bigint's reviver; 270 -> 252 at
// 251.1: `keep_names = false` (wrangler.toml), no esbuild `__name` wrapper per function; 252 ->
// 251 at 250.9 (251.4 with the token refusals): auth-app's default token cache (`toad-cache`)
// aliased out, since it is always given ours; 251 -> 235 at 234.6: YAML read through js-yaml's
// event parser instead of the `yaml` package, whose Document model carries its stringifier and
// every schema (30 KiB gzipped against 13.6 for what we call of js-yaml). 235 -> 239 at 238.2
// (issue 28): the upload split into an entry and the chunks it loads on first use (234.9 as one
// module; the chunks' imports and exports of each other are the difference). 239 -> 240 at 238.8
// with each request and object loading only its own code (route groups, provider settings apart,
// the Task object's wiring on first use), measured where the deployed upload is built (below).
// 240 -> 241 at 240.7 (239.9 before, so 0.8 KiB) for issue 55's first part: one order per pull
// request (the review recorded before the answer), GET /tasks/:id?wait and the Task object's
// readiness, a missing turn's reason, signed links in the history, one-line tool guidance and the
// agents file's bound, the check run's cut between characters. On 987396b with issue 55's second
// part under it (which adds nothing gzipped) main measures 240.3 and this 241.0 (+0.7).
// 240 -> 247 at 246.8 (issue 53, +6.9 over main's 239.9; 246.5 now, +6.6): MCP 2026-07-28
// beside 2025-11-25 (the era per request, server/discover, the Streamable HTTP headers checked against the body, cache
// hints, about 2.3 KiB), the skills extension (each skill's manifest with the SHA-256 of every
// file, computed and cached by the Task object, skills/list and skills/get, skill:// reads; about
// 2.8), tools' output schemas, icons and the templates' completions (about 1.5), and media types
// read as RFC 9110 defines them (by content-type, which @octokit/request already brought: 246.8 ->
// 246.5 at the rebase on issue 52). The official SDK's 2.x server instead of this code measured
// +55 KiB gzipped (issue-53 note). All of it loads with the MCP route group or the Task object's
// wiring, never at start-up. Tried and dropped: tool schemas as JSON made at build time (zod's
// classic schemas keep the JSON Schema converter anyway: +2.1).
// 240 -> 283 at 282.4 (issue 54): people sign in with GitHub, OAuth 2.1 for /mcp and the REST
// API. @cloudflare/workers-oauth-provider 1.2.3 is one class esbuild cannot shake (authorization
// server, consent and upstream helpers, CIMD, token exchange, enterprise-managed authorization):
// 32.9 KiB gzipped in a chunk of its own, which only a sign-in, the provider's endpoints or a
// person's token loads (an API token's REST call, MCP call and task page never do:
// test/node/worker-modules.test.ts), so start-up and the hosts' paths are unchanged; the access
// decisions, the sign-in pages and sessions are about 9.6 more. The library's recommended split
// (the authorization server in a Worker of its own behind a Service Binding, README "Quick
// start") would take the 32.9 out of this upload, at the cost of a second Worker to deploy.
// Re-measured on main 987396b: 282.3 against main's 239.9 (+42.4); with the provider replaced by
// an empty stub, 250.8, so the provider is 31.5 of the total and our code 10.9. Of the provider,
// `OAuthResourceServer` alone is 3.6 KiB gzipped: what a split would leave here.
// 240 -> 248 at 247.5 (main 239.9) for issue 50's clients: the five loader profiles (2.8 KiB; their
// facts and citations stay out of the upload, in src/clients/facts/), the rule set's complement,
// client cells, shadowed files and import edges in the Task object, the client on the task request
// and MCP, and the inspector's files-by-clients matrix (4.8 KiB together).
// 240 -> 240.5 at 240.2 (issue 56, from main's 239.9): tools/list's JSON Schemas converted once
// (mcp/input-schema), an installable SHA-256 (lib/sha256) and the project-file names as one
// expression; about 0.1 KiB of code, the rest the chunk names' churn described below.
// Each entry above was measured on its own branch from 239.9. Merged together (issue 55, 53, 54,
// 50 with its lints and `groundwork rules`, 56) the upload is 299.2 KiB, so 240 -> 300: the sum of
// the entries (+58.6) and the chunk names' churn. This is over issue 56's goal of 250 KiB for the
// wave, by the OAuth provider (32.9 KiB, lazily loaded but counted) and our sign-in code (10.9)
// above all: see docs/benchmarks.md, "the Worker's upload after the wave".
// 300 -> 308 at 307.7 (issue 50 section 5, merged onto the wave's 299.2): the pull request check
// run's rules report (notify/rules-report, notify/markdown), the Task object's `rulesFor` and the
// rules run for the check run (task-rules), CHECK_RUN_CLIENTS and the MCP tool `rules_for_paths`
// with its output schema, about 3.7 KiB; and the rules matrix with every lint of issue 50 section 4
// (about 5.3 KiB), which the wave's figure did not hold yet: they reach the Worker only through
// this check run (on the wave they served `groundwork rules`, a CLI command). The Task object's
// wiring loads them on first use, so no accept path grows; the budget counts every chunk.
// 300 -> 304 at 303.7 for issue 51 (integ dd32bd3, the wave above, measured 299.1 on the same
// machine, so +4.6): freshness compares the rule set that applies at the pin and at the new head
// (each provider's ruleSet, the reader that runs it with a commit's own settings, the diff and its
// one-line reasons, the later turn that brings what now applies, the inspector's rows, about 16 KiB
// minified, all in the Task object's and the pages' chunks, none on an accept path), as the task's
// client sees it (what the client loads itself against what Groundwork gives it). On issue 50 alone
// it measured 247.4 -> 252.6 (+4.6 for the comparison, +0.6 for the client dimension).
// Issue 56's diet (branch bundle-diet, first measured on integ with issues 53, 54 and 55 at
// 290.8): the MCP tools' JSON Schemas made at build time (src/mcp/tool-schemas.json, 2.7 KiB
// gzipped) and zod's JSON Schema converter given stand-ins (scripts/worker-build, 6.6): 290.8 ->
// 287.4; no `//# sourceMappingURL=` line in the modules deploy uploads (only `wrangler dev`'s
// build names the maps; wrangler uploads none): 287.4 -> 286.8; async-lock replaced by a per-key
// lock of a few lines (isomorphic-git calls `acquire(key, async fn)` alone; scripts/worker-aliases):
// 286.8 -> 285.8; no pify (isomorphic-git promisifies only a callback-style fs client): 285.8 ->
// 285.5. Merged with integ dd32bd3 (everything, 299.2): 294.1 (-5.1); tools/list's JSON Schemas
// come from the build-time JSON, so mcp/input-schema's conversion cache is gone.
// All three merged on the wave (issue 50 section 5 +8.5, issue 51 +4.6, the diet -5.1): 308.4, so
// 300 -> 309. Issue 56's goal of 250 stays unmet: see docs/benchmarks.md.
// 309 -> 280 at 279.9 (issue 56 goal 4, main f75c0c1 at 308.2, so -28.3): the remote git source
// speaks smart HTTP and indexes packs itself (src/sources/git/smart-http.ts, pack-index.ts, with
// workerd's node:zlib and node:crypto) instead of isomorphic-git with pako, sha.js, crc-32 and
// async-lock, and the six stand-ins those needed are gone (test/node/worker-modules.test.ts fails
// an upload that carries any of them again).
// 309 -> 276.8 at 276.3 (issue 56, branch oauth-split, from main f75c0c1 measured here the same
// hour at 308.6, so -32.3): the OAuth 2.1 authorization server (@cloudflare/workers-oauth-provider's
// OAuthAuthorizationServer, the consent and sign-in pages, GitHub's callback, the token endpoint)
// moved into a Worker of its own behind the AUTH_SERVER Service Binding, the library's "Separate
// Workers" topology (its docs/resource-servers.md, 1.2.3). What stays here: the forward of those
// paths (routes/groups/auth-forward), the resources' RFC 9728 metadata and `OAuthResourceServer`
// (auth/resource-server, about 3.6 KiB gzipped of the provider) whose token check is an RPC, and
// the check that an answer came from the authorization Worker (its mark, auth/auth-binding).
// Both on one branch (integration of issue 56's wave, with the rules settings' `clients`, +0.6): 248.5; with the first turn's snapshot reuse (issue 56 goal 3) 249.0. The budget is the goal itself, 250: chunk-name hashes move the total by up to 0.4 KiB by luck.
// 250.0 with this session's three branches merged (the cold first turn +0.6, the tree-snapshot
// split +0.1): at the budget. 247.7 once js-yaml's unused tags and schemas (YAML 1.1's, the
// dumper's) left the upload: esbuild kept them because js-yaml builds them at its top level, so the
// build marks those constructions pure (scripts/worker-rewrites `yamlConstantsPure`,
// test/node/worker-yaml-constants). Budget unchanged.
// 249.4 -> 246.0 (branch upload-room, main 2a37a20 built here; -3.5 KiB, budget unchanged, so 4.0
// KiB of room): js-yaml's template-built regular expressions marked pure too (the dumper's, -0.4);
// z.object built on zod's $ZodObject, not its JIT, whose compiler workerd never runs (-1.0, and
// -1.2 of the authorization Worker); the pages' security headers written out instead of
// hono/secure-headers' option handling (http/page-headers, -0.9); chunks named by what they are,
// not by esbuild's hash (-1.2), so the total no longer moves with where the upload is built.
// 249.7 -> 250.2 with a task's token asked for as it is created (+0.5: the code itself and where
// deflate's window then fell in the Task object's chunk); 249.9 with the inspector's stylesheet
// minified at build time (scripts/worker-rewrites `minifiedStyles`, -0.1 here, -0.1 of the
// authorization Worker) and that change written smaller. Budget unchanged. Measured in a clone
// with node_modules installed in it: with node_modules linked from elsewhere, the shared chunks'
// numbers (the order of their first source module) come out differently and move the total by
// about 0.06.
// 249.9 -> 250.4 with a task's end answering its waiting callers before its report
// (durable-objects/task-outcome: the report and the index's news owed with the status, +0.5);
// 249.2 with zod's default memoizer left out of the upload (scripts/worker-rewrites `zodForWorkerd`,
// -1.2: cycle support for inputs JSON never makes; the authorization Worker 71.5 -> 70.4); 249.3
// with the first attempt's answer apart from its end (first-turn-attempts). Budget unchanged.
// 249.3 -> 247.4 with zod's string format methods out (scripts/worker-rewrites
// `withoutStringFormats`, -1.9; the authorization Worker 70.4 -> 67.4), then 248.2 with providers'
// answers read by hand before their schemas (context/answer-checks-by-hand, +0.8). Budget unchanged.
const BUDGET_KIB = 250;
// The authorization Worker's own upload (dist/auth-worker): the provider (about 33 KiB gzipped),
// the sign-in and consent pages with the Hono and JSX they need, and zod with env.ts (its settings
// are read with the main Worker's schema), 80.7 at its first measure (issue 56). 81 -> 74 at 72.7
// (80.8 on main 21e0d43, both measured here the same hour, so -8.1): it reads its four settings
// (GITHUB_APP_CLIENT_ID, GITHUB_APP_CLIENT_SECRET, PUBLIC_URL, GITHUB_API_URL) itself, as the main
// Worker's schema takes them (src/auth/auth-settings.ts, held equal by test/auth/auth-settings),
// so env.ts, every provider's settings schema, the agents and the zod they used are out; zod stays
// for GitHub's answers and the grants' props (auth/github-user, auth/identity). 72.8 -> 71.6
// (branch upload-room): z.object without zod's JIT compiler, as in the main Worker above.
const AUTH_BUDGET_KIB = 74;
// Beside dist/worker, at its depth, as `wrangler deploy` builds it. The chunks' names no longer
// carry esbuild's hash (scripts/worker-build `stableChunkNames`), which covered the source maps'
// paths and moved the total by up to 0.7 KiB with where it was built: now the same bytes anywhere
// (test/node/worker-chunk-names).
const out = join(fileURLToPath(new URL('..', import.meta.url)), 'dist', 'bundle-check');
const authOut = join(fileURLToPath(new URL('..', import.meta.url)), 'dist', 'bundle-check-auth');
try {
  const { modules, metafile } = await buildWorker({ outdir: out });
  checkBudget('bundle', out, modules, BUDGET_KIB);
  checkZodLocales(metafile);
  checkJsonSchemaConverter(metafile);
  const auth = await buildWorker({ entry: 'src/auth-worker.ts', outdir: authOut });
  checkBudget('auth worker bundle', authOut, auth.modules, AUTH_BUDGET_KIB);
  checkZodLocales(auth.metafile);
  checkJsonSchemaConverter(auth.metafile);
} finally {
  rmSync(out, { recursive: true, force: true });
  rmSync(authOut, { recursive: true, force: true });
}

function checkBudget(label, dir, modules, budget) {
  const { kib, gzipKib } = uploadSize(dir, modules);
  console.log(`${label}: ${modules.length} modules, ${kib.toFixed(1)} KiB, ${gzipKib.toFixed(1)} KiB gzipped (budget ${budget} KiB gzipped)`);
  if (gzipKib > budget) {
    console.log(`${label} is over budget by ${(gzipKib - budget).toFixed(1)} KiB`);
    process.exitCode = 1;
  }
}

/**
 * zod's index re-exports its API as a namespace binding (`export { z }`). esbuild cannot shake a
 * namespace reached through a named import, so one `import { z } from 'zod'` anywhere puts every
 * locale (about 65 KiB gzipped) into the bundle; `import * as z from 'zod'` keeps only English.
 */
function checkZodLocales(meta) {
  // locales/index.js is no locale: the namespace stub a `zod/v4-mini` import keeps, 17 bytes.
  const inputs = Object.values(meta.outputs).flatMap((output) => Object.entries(output.inputs));
  const locales = inputs.filter(([path, input]) => /\/zod\/.*\/locales\/(?!en\.|index\.)[^/]+$/.test(path) && input.bytesInOutput > 0);
  if (locales.length === 0) return;
  const importers = ['src', 'durable-objects'].flatMap(sourceFiles).filter((file) => /^import\s*\{[^}]*\bz\b[^}]*\}\s*from\s*['"]zod['"]/m.test(readFileSync(file, 'utf8')));
  console.log(`bundle carries ${locales.length} of zod's locales: write \`import * as z from 'zod'\` instead of \`import { z } from 'zod'\` in ${importers.join(', ') || 'the module that imports it'}`);
  process.exitCode = 1;
}

/**
 * zod's JSON Schema converter has a stand-in in the upload (scripts/worker-build): the MCP tools'
 * JSON Schemas are made at build time (src/mcp/tool-json-schemas). The real one back is about
 * 6.6 KiB gzipped, so a build that resolves it another way fails here.
 */
function checkJsonSchemaConverter(meta) {
  const inputs = Object.values(meta.outputs).flatMap((output) => Object.entries(output.inputs));
  const real = inputs.filter(([path, input]) => !path.startsWith(`${JSON_SCHEMA_STAND_IN}:`) && /\/zod\/.*\/(to-json-schema|json-schema-processors)\.js$/.test(path) && input.bytesInOutput > 0);
  if (real.length === 0) return;
  console.log(`bundle carries zod's JSON Schema converter (${real.map(([path]) => path).join(', ')}): its stand-in in scripts/worker-build is not applied`);
  process.exitCode = 1;
}

function sourceFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

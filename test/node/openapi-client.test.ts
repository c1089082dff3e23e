/**
 * The HTTP contract as a typed client reads it: types generated from docs/openapi.json by
 * openapi-typescript, a client made by openapi-fetch, and a program that calls the real Worker
 * (under `groundwork run --keep`, in Miniflare) with numbers where the API takes numbers: turn
 * `n` in paths, `limit` and `wait` in query strings. The program is type-checked against the generated types
 * first, so a number the contract called a string (the old `n: '0'`) fails here, and then run.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitRepo, type GitFixture } from '../support/git-fixtures.ts';
import { BUILT_CLI } from './cli-support.ts';

const ROOT = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
// Each run boots workerd; on a shared two-core machine that alone can take seconds.
const BOOT_TIMEOUT = 120_000;

/**
 * The client program. `n`, `limit` and `wait` are numbers; a string where the contract says integer is a
 * type error (the `@ts-expect-error` line would itself be an error if it were not).
 */
const CLIENT = `
import createClient from 'openapi-fetch';
import type { paths } from './paths.ts';

const [url = '', token = '', repo = ''] = process.argv.slice(2);
const client = createClient<paths>({ baseUrl: url, headers: { authorization: \`Bearer \${token}\` } });

const created = await client.POST('/tasks', { body: { repo, request: 'Explain the build.' } });
if (!created.data) throw new Error(\`POST /tasks: \${created.response.status}\`);
const id = created.data.id;
// A read that answers once the task is ready or failed, instead of polling; a wait that ran out
// (30 s, on a loaded machine) is simply asked again, as docs/http-api.md says.
const settled = (status: string | undefined) => status === 'ready' || status === 'failed';
let waited = await client.GET('/tasks/{id}', { params: { path: { id }, query: { wait: 30 } } });
for (let i = 0; i < 3 && !settled(waited.data?.status); i++) waited = await client.GET('/tasks/{id}', { params: { path: { id }, query: { wait: 30 } } });
const turn = await client.GET('/tasks/{id}/turns/{n}', { params: { path: { id, n: 0 } } });
const usage = await client.POST('/tasks/{id}/turns/{n}/usage', { params: { path: { id, n: 0 } }, body: { format: 'anthropic', usage: { input_tokens: 100, output_tokens: 7 } } });
const list = await client.GET('/tasks', { params: { query: { limit: 1 } } });
const knowledge = await client.GET('/knowledge', { params: { query: { repo, limit: 5 } } });
const page = await client.GET('/view', { params: { query: { limit: 2 } }, parseAs: 'text' });
const tooFar = await client.GET('/tasks/{id}/turns/{n}', { params: { path: { id, n: 10_001 } } });
// @ts-expect-error a turn number is an integer in the contract, not text
const typedAsText = () => client.GET('/tasks/{id}/turns/{n}', { params: { path: { id, n: '0' } } });
void typedAsText;
// @ts-expect-error so are the seconds to wait
const waitAsText = () => client.GET('/tasks/{id}', { params: { path: { id }, query: { wait: '30' } } });
void waitAsText;

process.stdout.write(JSON.stringify({
  created: [created.response.status, created.response.headers.get('location'), id],
  waited: [waited.response.status, waited.data?.status, waited.response.url],
  turn: [turn.response.status, turn.data?.turn, turn.response.url],
  usage: [usage.response.status, usage.data?.usage.inputTokens],
  list: [list.response.status, list.data?.tasks.length, list.response.url],
  knowledge: [knowledge.response.status, knowledge.response.url],
  page: [page.response.status, page.response.headers.get('content-type'), page.response.url],
  tooFar: [tooFar.response.status, tooFar.error?.error.message],
}));
`;

describe('a client generated from docs/openapi.json', () => {
  let repo: GitFixture;
  let work: string;
  let state: string;
  let worker: ChildProcess;
  let url = '';
  let token = '';

  beforeAll(async () => {
    repo = createGitRepo();
    repo.write('AGENTS.md', '# Rules\nRun the tests.\n');
    repo.commitAll('rules');
    state = mkdtempSync(join(tmpdir(), 'groundwork-openapi-client-state-'));
    // Inside the project, so the program resolves openapi-fetch from its node_modules.
    mkdirSync(join(ROOT, 'node_modules', '.cache'), { recursive: true });
    work = mkdtempSync(join(ROOT, 'node_modules', '.cache', 'openapi-client-'));

    worker = spawn(process.execPath, [BUILT_CLI, 'run', '--repo', repo.dir, '--state', state, '--keep'], { stdio: ['ignore', 'pipe', 'pipe'] });
    worker.stdout?.resume();
    let stderr = '';
    await new Promise<void>((resolve, reject) => {
      worker.stderr?.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        if (stderr.includes('Press Ctrl-C to stop.')) resolve();
      });
      worker.on('exit', () => reject(new Error(`groundwork run exited before serving: ${stderr}`)));
    });
    url = /Groundwork is running at (http:\/\/127\.0\.0\.1:\d+)/.exec(stderr)?.[1] ?? '';
    token = /token: ([0-9a-f]+)/.exec(stderr)?.[1] ?? '';
  }, BOOT_TIMEOUT);

  afterAll(async () => {
    if (worker.exitCode === null) {
      const closed = new Promise((resolve) => worker.on('close', resolve));
      worker.kill('SIGINT');
      await closed;
    }
    repo.remove();
    rmSync(state, { recursive: true, force: true });
    rmSync(work, { recursive: true, force: true });
  });

  it(
    'is type-checked with numbers for n, limit and wait, and calls the Worker with them',
    async () => {
      const document: unknown = JSON.parse(readFileSync(join(ROOT, 'docs', 'openapi.json'), 'utf8'));
      writeFileSync(join(work, 'paths.ts'), astToString(await openapiTS(JSON.stringify(document))));
      writeFileSync(join(work, 'client.ts'), CLIENT);

      const program = ts.createProgram([join(work, 'client.ts')], {
        strict: true,
        noEmit: true,
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.NodeNext,
        moduleResolution: ts.ModuleResolutionKind.NodeNext,
        allowImportingTsExtensions: true,
        skipLibCheck: true,
        types: ['node'],
        typeRoots: [join(ROOT, 'node_modules', '@types')],
      });
      const problems = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      expect(problems).toEqual([]);

      // Node does not strip types under node_modules, so TypeScript writes the JavaScript it runs.
      writeFileSync(join(work, 'client.mjs'), ts.transpileModule(CLIENT, { compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext } }).outputText);
      const ran = spawnSync(process.execPath, [join(work, 'client.mjs'), url, token, `file://${repo.dir}`], { encoding: 'utf8', timeout: 120_000 });
      expect(ran.status, ran.stderr).toBe(0);
      const answers = JSON.parse(ran.stdout) as Record<string, unknown[]>;
      const id = String(answers['created']?.[2]);
      expect(answers['created']).toEqual([202, `${url}/tasks/${id}`, expect.stringMatching(/^[0-9a-f]{64}$/)]);
      expect(answers['waited']).toEqual([200, 'ready', `${url}/tasks/${id}?wait=30`]);
      expect(answers['turn']).toEqual([200, 0, expect.stringMatching(/\/turns\/0$/)]);
      expect(answers['usage']).toEqual([201, 100]);
      expect(answers['list']).toEqual([200, 1, expect.stringMatching(/\/tasks\?limit=1$/)]);
      expect(answers['knowledge']?.slice(0, 1)).toEqual([200]);
      expect(answers['knowledge']?.[1]).toMatch(/limit=5/);
      expect(answers['page']).toEqual([200, expect.stringMatching(/^text\/html/), expect.stringMatching(/\/view\?limit=2$/)]);
      expect(answers['tooFar']).toEqual([400, 'n: must be at most 10000']);
    },
    BOOT_TIMEOUT,
  );
});

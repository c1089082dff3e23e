/**
 * `groundwork context --facts FILE`: the host facts of a local task, checked by the schema
 * `POST /tasks` uses; a bad file is exit 2 naming the fact and field, and nothing is assembled.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitRepo, type GitFixture } from '../support/git-fixtures.ts';
import { ofProvider, runCli, runCliJson, userMessage } from './cli-support.ts';

let repo: GitFixture;
let dir: string;
const file = (name: string, text: string): string => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

beforeAll(() => {
  repo = createGitRepo();
  repo.write('AGENTS.md', '# Rules\n\nRun the tests.\n');
  repo.commitAll('rules');
  dir = mkdtempSync(join(tmpdir(), 'groundwork-facts-'));
});
afterAll(() => {
  repo.remove();
  rmSync(dir, { recursive: true, force: true });
});

describe('groundwork context --facts', () => {
  it('gives each fact to the host provider with its source and freshness', async () => {
    const facts = file('facts.json', JSON.stringify([{ title: 'CI', body: 'GitHub Actions, ubuntu-24.04 runners', freshness: 'volatile', source: { uri: 'https://ci.example.com/runners' } }]));
    const turn = await runCliJson(['--repo', repo.dir, '--facts', facts]);
    const host = ofProvider(turn, 'host');
    expect(host.outcome?.outcome).toBe('included');
    expect(host.entries.map((entry) => [entry.title, entry.freshness, entry.source.uri])).toEqual([['CI', 'volatile', 'https://ci.example.com/runners']]);
    expect(userMessage(turn)).toContain('GitHub Actions, ubuntu-24.04 runners');
  });

  it('refuses a file it cannot use with exit 2, naming what is wrong, and assembles nothing', async () => {
    const cases: Array<[string, RegExp]> = [
      [join(dir, 'missing.json'), /^groundwork: --facts: cannot read .*missing\.json/],
      [file('not-json.json', '{ facts: '), /^groundwork: --facts: .*not-json\.json is not JSON/],
      [file('no-source.json', JSON.stringify([{ title: 'Node.js', body: 'node 22', freshness: 'snapshot' }])), /^groundwork: --facts: facts\[0\]\.source: /],
      [file('credentials.json', JSON.stringify([{ title: 'Devbox', body: 'ready', freshness: 'snapshot', source: { uri: 'https://user:secret@devbox.example' } }])), /^groundwork: --facts: facts\[0\]\.source\.uri: must not hold credentials/],
      [file('object.json', JSON.stringify({ title: 'Node.js' })), /^groundwork: --facts: facts: /],
    ];
    for (const [path, error] of cases) {
      const run = await runCli(['--repo', repo.dir, '--facts', path, '--json']);
      expect(run.code, path).toBe(2);
      expect(run.stdout, path).toBe('');
      expect(run.stderr, path).toMatch(error);
    }
  });
});

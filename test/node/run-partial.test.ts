/**
 * `groundwork run` on a repository that lacks some files' content: a real partial clone
 * (`git clone --filter=blob:limit=4k` from a local `file://` server, large files not checked out)
 * and a clone with one blob deleted from its object store. The commit is served without them, git
 * is never asked to fetch them from the clone's remote, a warning names them, and the task says
 * what it could not read, as `groundwork context` does, instead of refusing to start.
 */
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runRunCommand } from '../../src/cli/run/run-command.ts';
import { AssembledTurnSchema, type AssembledTurn } from '../../src/context/turn-schema.ts';
import { createGitRepo, runGit, type GitFixture } from '../support/git-fixtures.ts';
import { runCliJson } from './cli-support.ts';

// Each run boots workerd; on a shared two-core machine that alone can take seconds.
const BOOT_TIMEOUT = 120_000;

async function run(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runRunCommand(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}

/** Blobs of HEAD the repository does not have, as git itself lists them. */
const absent = (dir: string): string[] =>
  runGit(dir, ['rev-list', '--objects', '--missing=print', 'HEAD'])
    .split('\n')
    .filter((line) => line.startsWith('?'))
    .map((line) => line.slice(1))
    .sort();

const ofRepository = (turn: AssembledTurn) => turn.entries.filter((entry) => entry.provider === 'rules' || entry.provider === 'skills').map((entry) => [entry.provider, entry.title, entry.source.path]);

describe('groundwork run without some files’ content', () => {
  let origin: GitFixture;
  let partial: string;
  let pruned: string;
  let prunedBlob: string;
  const made: string[] = [];

  beforeAll(() => {
    origin = createGitRepo();
    origin.write('AGENTS.md', 'Root rules: run the tests.\n');
    origin.write('.agents/skills/lint/SKILL.md', '---\nname: lint\ndescription: Lint it.\n---\nRun the linter.\n');
    // Over the filter's 4 KiB: a partial clone does not fetch them until asked.
    origin.write('docs/AGENTS.md', `Docs rules.\n${'Write it plainly. '.repeat(400)}\n`);
    origin.write('assets/logo.bin', randomBytes(20_000).toString('base64'));
    origin.write('assets/demo.bin', randomBytes(30_000).toString('base64'));
    origin.commitAll('rules, a skill and large files');
    runGit(origin.dir, ['config', 'uploadpack.allowFilter', 'true']);

    partial = `${origin.dir}-partial`;
    made.push(partial);
    runGit(origin.dir, ['clone', '--quiet', '--filter=blob:limit=4k', '--no-checkout', `file://${origin.dir}`, partial]);
    runGit(partial, ['sparse-checkout', 'set', '--no-cone', '/AGENTS.md', '/.agents/']);
    runGit(partial, ['checkout', '--quiet', 'main']);

    // Every object loose, then the skill's blob deleted: not a partial clone, just a damaged one.
    pruned = `${origin.dir}-pruned`;
    made.push(pruned);
    runGit(origin.dir, ['clone', '--quiet', '--no-local', `file://${origin.dir}`, pruned]);
    const packs = join(pruned, '.git', 'objects', 'pack');
    const packed = readdirSync(packs).map((name) => join(packs, name));
    const bytes = readFileSync(packed.find((path) => path.endsWith('.pack')) ?? '');
    for (const path of packed) rmSync(path, { force: true });
    runGit(pruned, ['unpack-objects', '-q'], bytes);
    prunedBlob = runGit(pruned, ['rev-parse', 'HEAD:.agents/skills/lint/SKILL.md']);
    rmSync(join(pruned, '.git', 'objects', prunedBlob.slice(0, 2), prunedBlob.slice(2)));
  });
  afterAll(() => {
    for (const dir of made) rmSync(dir, { recursive: true, force: true });
    origin.remove();
  });

  it(
    'serves a partial clone whose large files were never fetched, as context reads it, and fetches nothing from its remote',
    async () => {
      const missing = absent(partial);
      expect(missing).toEqual(['docs/AGENTS.md', 'assets/logo.bin', 'assets/demo.bin'].map((path) => runGit(origin.dir, ['rev-parse', `HEAD:${path}`])).sort());
      const local = await runCliJson(['--repo', partial]);

      const served = await run(['--repo', partial, '--state', join(partial, '.state'), '--json']);
      expect(served.code, served.stderr).toBe(0);
      expect(served.stderr).not.toContain('objects it needs');
      const warning = served.stderr.split('\n').find((line) => line.startsWith('warning: this partial clone'));
      expect(warning).toMatch(/^warning: this partial clone \(filter blob:limit=4096\) has not fetched 3 files of [0-9a-f]{12}: /);
      for (const path of ['docs/AGENTS.md', 'assets/logo.bin', 'assets/demo.bin']) expect(warning).toContain(`${path} (blob `);
      const turn = AssembledTurnSchema.parse(JSON.parse(served.stdout));
      expect(turn.providers.filter((p) => p.name === 'rules' || p.name === 'skills').map((p) => [p.name, p.outcome])).toEqual([
        ['rules', 'included'],
        ['skills', 'included'],
      ]);
      expect(ofRepository(turn)).toEqual(ofRepository(local));
      // The remote is right there, and still nothing was fetched from it.
      expect(absent(partial)).toEqual(missing);
    },
    BOOT_TIMEOUT,
  );

  it(
    'lets the task say it could not read a rule file whose content the clone lacks, with its remote gone',
    async () => {
      const away = `${origin.dir}-away`;
      renameSync(origin.dir, away);
      try {
        const served = await run(['--repo', partial, '--path', 'docs/guide.md', '--state', join(partial, '.state-focus'), '--json']);
        expect(served.code, served.stderr).toBe(0);
        const turn = AssembledTurnSchema.parse(JSON.parse(served.stdout));
        const rules = turn.providers.find((p) => p.name === 'rules');
        expect(rules?.outcome).toBe('failed');
        expect(rules?.reason).toContain('could not read docs/AGENTS.md');
        // The model is told, not left to claim it followed rules it never saw.
        expect(turn.messages.at(-1)?.content).toMatch(/<groundwork-notice [^>]*provider="rules">/);
      } finally {
        renameSync(away, origin.dir);
      }
    },
    BOOT_TIMEOUT,
  );

  it(
    'serves a clone with a blob deleted from its object store, naming it, where it used to refuse to start',
    async () => {
      const served = await run(['--repo', pruned, '--state', join(pruned, '.state'), '--json']);
      expect(served.code, served.stderr).toBe(0);
      expect(served.stderr).toContain(`warning: 1 file of ${runGit(pruned, ['rev-parse', 'HEAD']).slice(0, 12)} is missing from the repository: .agents/skills/lint/SKILL.md (blob ${prunedBlob.slice(0, 12)})`);
      // The working tree's copy could not be compared with content the repository lacks: said so, not called an edit.
      expect(served.stderr).toContain('warning: .agents/skills/lint/SKILL.md could not be compared with the working tree (file ');
      expect(served.stderr).not.toContain('uncommitted changes');
      const turn = AssembledTurnSchema.parse(JSON.parse(served.stdout));
      expect(turn.providers.find((p) => p.name === 'rules')?.outcome).toBe('included');
      const skills = turn.providers.find((p) => p.name === 'skills');
      expect(skills?.outcome).toBe('failed');
      expect(skills?.reason).toContain('.agents/skills/lint/SKILL.md');
    },
    BOOT_TIMEOUT,
  );
});

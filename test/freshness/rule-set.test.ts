import { describe, expect, it } from 'vitest';
import { BUILTIN_AGENTS } from '../../src/context/agents.ts';
import type { ClientName } from '../../src/context/client.ts';
import type { TaskView } from '../../src/context/provider.ts';
import { createRuleSetReader } from '../../src/context/rule-set-reader.ts';
import { checkFreshness } from '../../src/freshness/check.ts';
import { trackedSources, type TrackedSource } from '../../src/freshness/tracked.ts';
import { createDefaultRegistry } from '../../src/providers/registry.ts';
import type { RepositorySource } from '../../src/sources/snapshot.ts';
import { createTreeSnapshot, type TreeLoader } from '../../src/sources/tree-snapshot.ts';
import { createMemoryTree, gitBlobOid, type MemoryFile } from '../support/memory-tree.ts';

const OLD = '1'.repeat(40);
const NEW = '2'.repeat(40);
const NOW = Date.parse('2026-11-20T12:00:00Z');
const registry = createDefaultRegistry();
const agent = BUILTIN_AGENTS.get('entry');
if (!agent) throw new Error('no entry agent');

type Files = Record<string, MemoryFile>;

/** Two commits in memory, `main` at NEW; `failing` names a commit whose every read fails; counts the trees loaded. */
async function repo(before: Files, after: Files, failing?: string) {
  const trees: string[] = [];
  const loaders = new Map<string, TreeLoader>([
    [OLD, (await createMemoryTree(before, OLD)).loader],
    [NEW, (await createMemoryTree(after, NEW)).loader],
  ]);
  const source: RepositorySource = {
    repository: 'memory:rules',
    resolve: async (ref) => (ref === 'main' ? { status: 'ok', commit: NEW } : { status: 'missing', ref }),
    snapshot(commit) {
      const inner = loaders.get(commit);
      if (!inner) throw new Error(`no commit ${commit}`);
      const loader: TreeLoader = {
        async loadTree(signal) {
          trees.push(commit);
          if (commit === failing) throw new Error('the remote hung up');
          return inner.loadTree(signal);
        },
        loadBlob: (oid, signal) => inner.loadBlob(oid, signal),
        loadCommit: (signal) => inner.loadCommit(signal),
      };
      return createTreeSnapshot({ repository: 'memory:rules', commit, uri: (path) => `memory:${path}@${commit}`, loader });
    },
  };
  return { source, trees };
}

interface Focus {
  cwd?: string;
  paths?: string[];
  /** Files the model was given at OLD, as the rules provider records them. */
  given?: Files;
  /** The client the task named (issue 50): the rule set is compared as it sees it. */
  client?: ClientName;
}

async function compare(before: Files, after: Files, focus: Focus = {}, failing?: string) {
  const r = await repo(before, after, failing);
  const task: TaskView = { request: 'Fix it.', origin: 'api', repository: 'memory:rules', ref: 'main', commit: OLD, cwd: focus.cwd ?? '', focusPaths: focus.paths ?? [], trusted: true, skills: [], agent: 'entry', ...(focus.client ? { client: { name: focus.client } } : {}) };
  const ruleSets = createRuleSetReader({ registry, agent: agent as NonNullable<typeof agent>, task, available: ['repo:read'] });
  const sources: TrackedSource[] = trackedSources(
    await Promise.all(
      Object.entries(focus.given ?? {}).map(async ([path, text]) => ({ provider: 'rules', category: 'rules', title: path, source: { uri: `memory:${path}`, path, revision: OLD, blob: await gitBlobOid(String(text)) } })),
    ),
  );
  const report = await checkFreshness({ source: r.source, commit: OLD, ref: 'main', sources, ...(ruleSets ? { ruleSets } : {}), deadlineMs: 5_000, now: () => NOW });
  return { report, trees: r.trees, lines: report.ruleSet?.changes.map((change) => change.line) ?? [] };
}

const instructions = (applyTo: string, text = 'Scoped.\n') => `---\napplyTo: "${applyTo}"\n---\n${text}`;

describe('the rule set at the pin and at the new head', () => {
  it('says an AGENTS.override.md replaces the AGENTS.md of its directory, and a file off the chains is no change (the issue example)', async () => {
    const before = { 'AGENTS.md': 'ROOT\n', 'src/AGENTS.md': 'SRC\n' };
    const { report, lines } = await compare(before, { ...before, 'src/AGENTS.override.md': 'OVERRIDE\n', 'src/sub/AGENTS.md': 'SUB\n' }, { cwd: 'src', given: before });
    expect(lines).toEqual(['src/AGENTS.override.md added: it replaces src/AGENTS.md for src']);
    expect(report.ruleSet).toEqual({
      status: 'changed',
      changes: [
        {
          change: 'added',
          provider: 'rules',
          path: 'src/AGENTS.override.md',
          from: 'src/AGENTS.md',
          format: 'directory-file',
          currentVerdict: 'applied',
          currentBlob: await gitBlobOid('OVERRIDE\n'),
          line: 'src/AGENTS.override.md added: it replaces src/AGENTS.md for src',
        },
      ],
    });
    // The given files themselves did not change: the rule set is what moved.
    expect(report.sources.map((s) => [s.path, s.status])).toEqual([
      ['AGENTS.md', 'unchanged'],
      ['src/AGENTS.md', 'unchanged'],
    ]);
  });

  it('says a CLAUDE.md beside an AGENTS.md is shadowed, and a rule file where there was none is added', async () => {
    const { lines } = await compare({ 'README.md': 'An app.\n' }, { 'AGENTS.md': 'Rules.\n', 'CLAUDE.md': 'Claude.\n', 'README.md': 'An app.\n' });
    expect(lines).toEqual(['AGENTS.md added: it applies to .', 'CLAUDE.md added: shadowed by AGENTS.md in ., which is given instead']);
  });

  it('says which scoped rules newly match the focus and which no longer do, for applyTo, globs and paths', async () => {
    const before = {
      '.github/instructions/api.instructions.md': instructions('lib/**'),
      '.github/instructions/docs.instructions.md': instructions('src/**'),
      '.cursor/rules/ts.mdc': '---\nglobs: "*.py"\n---\nPython.\n',
      '.claude/rules/web.md': '---\npaths: ["src/**/*.ts"]\n---\nWeb.\n',
    };
    const after = {
      '.github/instructions/api.instructions.md': instructions('src/**'),
      '.github/instructions/docs.instructions.md': instructions('docs/**'),
      '.cursor/rules/ts.mdc': '---\nglobs: "src/**/*.ts"\n---\nTypeScript.\n',
      '.claude/rules/web.md': '---\npaths: ["web/**"]\n---\nWeb.\n',
    };
    const { lines } = await compare(before, { ...after, 'docs/x.md': 'x\n', 'web/a.ts': 'a\n' }, { paths: ['src/app.ts'] });
    expect(lines).toEqual([
      '.claude/rules/web.md no longer applies: no focus path matched paths "web/**"',
      '.cursor/rules/ts.mdc now applies: globs "src/**/*.ts" matched src/app.ts',
      '.github/instructions/api.instructions.md now applies: applyTo "src/**" matched src/app.ts',
      '.github/instructions/docs.instructions.md no longer applies: no focus path matched applyTo "docs/**"',
    ]);
  });

  it('says an import that disappeared, one no longer imported and one newly imported; a changed import the model was given is the sources\u2019 to report', async () => {
    const before = { 'CLAUDE.md': '# Claude\n@docs/style.md\n@docs/gone.md\n@docs/old.md\n', 'docs/style.md': 'Style.\n', 'docs/gone.md': 'Gone.\n', 'docs/old.md': 'Old.\n' };
    const after = { 'CLAUDE.md': '# Claude\n@docs/style.md\n@docs/gone.md\n@docs/new.md\n', 'docs/style.md': 'Style, stricter.\n', 'docs/old.md': 'Old.\n', 'docs/new.md': 'New.\n' };
    const { lines, report } = await compare(before, after, { given: { 'CLAUDE.md': before['CLAUDE.md'], 'docs/style.md': before['docs/style.md'] } });
    expect(lines).toEqual([
      'docs/gone.md deleted (it applied: imported by CLAUDE.md)',
      'docs/new.md added: imported by CLAUDE.md',
      'docs/old.md no longer applies: nothing the rules read imports it now (it was imported by CLAUDE.md)',
    ]);
    expect(report.sources.map((s) => [s.path, s.status])).toEqual([
      ['CLAUDE.md', 'changed'],
      ['docs/style.md', 'changed'],
    ]);
  });

  it('names a rename as one change, and a deletion that lets a shadowed file apply again', async () => {
    const before = { 'AGENTS.override.md': 'Override.\n', 'AGENTS.md': 'Root.\n', '.github/instructions/api.instructions.md': instructions('**') };
    const after = { 'AGENTS.md': 'Root.\n', '.github/instructions/backend.instructions.md': instructions('**') };
    const { lines } = await compare(before, after);
    expect(lines).toEqual([
      '.github/instructions/api.instructions.md renamed to .github/instructions/backend.instructions.md',
      'AGENTS.override.md deleted: AGENTS.md applies in its place for .',
    ]);
  });

  it('says a rule that is now indexed rather than applied, and new content of an indexed rule the model was not given', async () => {
    const requested = (text: string) => `---\ndescription: ${text}\n---\nOnly when asked.\n`;
    const before = { '.cursor/rules/db.mdc': '---\nalwaysApply: true\n---\nDatabase.\n', '.cursor/rules/deploy.mdc': requested('Deploying') };
    const after = { '.cursor/rules/db.mdc': requested('Database work'), '.cursor/rules/deploy.mdc': requested('Deploying to production') };
    const { lines, report } = await compare(before, after);
    const [db, deploy] = [await gitBlobOid(before['.cursor/rules/deploy.mdc']), await gitBlobOid(after['.cursor/rules/deploy.mdc'])];
    expect(lines).toEqual([
      '.cursor/rules/db.mdc is now indexed: agent-requested: listed in the rules index by its description',
      `.cursor/rules/deploy.mdc changed (blob ${db.slice(0, 7)} -> ${deploy.slice(0, 7)}); it is indexed: agent-requested: listed in the rules index by its description`,
    ]);
    expect(report.ruleSet?.changes.map((change) => [change.change, change.verdict, change.currentVerdict])).toEqual([
      ['no-longer-applies', 'applied', 'indexed'],
      ['changed', 'indexed', 'indexed'],
    ]);
  });

  it('says what a .groundwork.yml changed: the names read, and a format turned off', async () => {
    const base = { 'AGENTS.md': 'Agents.\n', 'GEMINI.md': 'Gemini.\n', '.github/copilot-instructions.md': 'Copilot.\n' };
    const { lines } = await compare(base, { ...base, '.groundwork.yml': 'providers:\n  rules:\n    filenames: [GEMINI.md, AGENTS.md]\n    copilotInstructions: false\n' });
    expect(lines).toEqual([
      '.groundwork.yml changed what rules reads: instruction file names AGENTS.override.md, AGENTS.md, AGENTS.MD, CLAUDE.md, CLAUDE.MD, GEMINI.md -> instruction file names GEMINI.md, AGENTS.md; copilotInstructions off',
      '.github/copilot-instructions.md no longer applies: turned off by a setting (copilotInstructions: false)',
      'GEMINI.md now applies: it replaces AGENTS.md for .',
    ]);
  });

  it('says a skills root appeared, and leaves a root the skills index watches to the index', async () => {
    const skill = (name: string) => `---\nname: ${name}\ndescription: ${name}.\n---\nDo.\n`;
    const before = { '.agents/skills/tdd/SKILL.md': skill('tdd') };
    const after = { ...before, '.agents/skills/lint/SKILL.md': skill('lint'), '.claude/skills/review/SKILL.md': skill('review'), 'src/.claude/skills/deploy/SKILL.md': skill('deploy') };
    const r = await repo(before, after);
    const task: TaskView = { request: 'Fix it.', origin: 'api', repository: 'memory:rules', ref: 'main', commit: OLD, cwd: 'src', focusPaths: [], trusted: true, skills: [], agent: 'entry' };
    const ruleSets = createRuleSetReader({ registry, agent: agent as NonNullable<typeof agent>, task, available: ['repo:read'] });
    const sources = trackedSources([{ provider: 'skills', category: 'skills', title: 'Skills index', source: { uri: 'memory:.agents/skills', path: '.agents/skills', revision: OLD } }]);
    const report = await checkFreshness({ source: r.source, commit: OLD, ref: 'main', sources, ...(ruleSets ? { ruleSets } : {}), deadlineMs: 5_000, now: () => NOW });
    expect(report.ruleSet?.changes.map((change) => [change.change, change.line])).toEqual([
      ['skill-root', 'skills root .claude/skills appeared: skill review'],
      ['skill-root', 'skills root src/.claude/skills appeared: skill deploy'],
    ]);
    expect(report.sources[0]).toMatchObject({ path: '.agents/skills', status: 'changed', changes: ['skill lint added'] });
  });

  it('is unchanged when the head moved without touching what applies, and reads nothing when the ref has not moved', async () => {
    const files = { 'AGENTS.md': 'Rules.\n', 'docs/AGENTS.md': 'Docs.\n' };
    const moved = await compare(files, { ...files, 'docs/AGENTS.md': 'Docs, changed.\n', '.github/instructions/docs.instructions.md': instructions('docs/**') }, { given: { 'AGENTS.md': 'Rules.\n' } });
    expect(moved.report.ruleSet).toEqual({ status: 'unchanged', changes: [] });
    // One tree per commit, shared by the sources and the rule set.
    expect(moved.trees.sort()).toEqual([OLD, NEW]);

    const r = await repo(files, files);
    const task: TaskView = { request: 'Fix it.', origin: 'api', ref: 'main', commit: NEW, cwd: '', focusPaths: [], trusted: true, skills: [], agent: 'entry' };
    const ruleSets = createRuleSetReader({ registry, agent: agent as NonNullable<typeof agent>, task, available: ['repo:read'] });
    const still = await checkFreshness({ source: r.source, commit: NEW, ref: 'main', sources: [], ...(ruleSets ? { ruleSets } : {}), deadlineMs: 5_000, now: () => NOW });
    expect(still).toMatchObject({ moved: false, ruleSet: { status: 'unchanged', changes: [] } });
    expect(r.trees).toEqual([]);
  });

  it('is unverifiable with the reason when the new head cannot be read, never unchanged', async () => {
    const { report } = await compare({ 'AGENTS.md': 'Rules.\n' }, { 'AGENTS.md': 'Rules.\n' }, {}, NEW);
    expect(report.ruleSet).toMatchObject({ status: 'unverifiable', changes: [] });
    expect(report.ruleSet?.reason).toMatch(/^the rule set at 2222222 could not be computed: .*the remote hung up/);
  });

  it('is not computed for an untrusted task: there is no rule set it may read', () => {
    const task: TaskView = { request: 'Fix it.', origin: 'api', ref: 'main', commit: OLD, cwd: '', focusPaths: [], trusted: false, skills: [], agent: 'entry' };
    expect(createRuleSetReader({ registry, agent: agent as NonNullable<typeof agent>, task, available: ['repo:read'] })).toBeUndefined();
  });
});

describe('the rule set as the task\u2019s client sees it (issue 50)', () => {
  it('says whether a new rule is one the client loads itself or one Groundwork gives it, and why', async () => {
    const before = { 'README.md': 'An app.\n', 'src/app.ts': 'x\n' };
    const after = { ...before, 'AGENTS.md': 'Root.\n', 'src/CLAUDE.md': 'Claude only.\n' };
    const codex = await compare(before, after, { cwd: 'src', client: 'codex' });
    expect(codex.lines).toEqual([
      'AGENTS.md added: it applies to src; Codex loads it itself at start',
      'src/CLAUDE.md added: it applies to src; given by Groundwork: Codex reads AGENTS.override.md or AGENTS.md, not CLAUDE.md',
    ]);
    expect(codex.report.ruleSet?.client).toBe('codex');
    expect(codex.report.ruleSet?.changes.map((change) => [change.path, change.currentVerdict])).toEqual([
      ['AGENTS.md', 'loaded-by-client'],
      ['src/CLAUDE.md', 'applied'],
    ]);
    // Claude Code reads the CLAUDE.md itself, and no AGENTS.md once a CLAUDE.md is on its walk (its profile): that one is Groundwork's to give.
    const claude = await compare(before, after, { cwd: 'src', client: 'claude-code' });
    expect(claude.lines).toEqual([
      'AGENTS.md added: it applies to src; given by Groundwork: Claude Code reads CLAUDE.md, not AGENTS.md, when one is on its way (src/CLAUDE.md)',
      'src/CLAUDE.md added: it applies to src; Claude Code loads it itself at start',
    ]);
    // Without a client, Groundwork's own rule set: both apply, nothing about a client.
    const none = await compare(before, after, { cwd: 'src' });
    expect(none.lines).toEqual(['AGENTS.md added: it applies to src', 'src/CLAUDE.md added: it applies to src']);
    expect(none.report.ruleSet?.client).toBeUndefined();
  });

  it('counts a verdict that changes for the client as a change: a CLAUDE.md beside the AGENTS.md Claude Code loaded', async () => {
    const before = { 'AGENTS.md': 'Root.\n' };
    const after = { ...before, 'CLAUDE.md': 'Claude.\n' };
    const claude = await compare(before, after, { client: 'claude-code' });
    expect(claude.lines).toEqual(['AGENTS.md is now given by Groundwork: it applies to .; Claude Code reads CLAUDE.md instead', 'CLAUDE.md added: it applies to .; Claude Code loads it itself at start']);
    expect(claude.report.ruleSet?.changes.map((change) => [change.change, change.path, change.verdict ?? null, change.currentVerdict])).toEqual([
      ['now-applies', 'AGENTS.md', 'loaded-by-client', 'applied'],
      ['added', 'CLAUDE.md', null, 'loaded-by-client'],
    ]);
    // For Groundwork itself the AGENTS.md is what it was: only the shadowed CLAUDE.md is new.
    expect((await compare(before, after)).lines).toEqual(['CLAUDE.md added: shadowed by AGENTS.md in ., which is given instead']);
    // Codex never reads CLAUDE.md: for it the AGENTS.md is unchanged, and the CLAUDE.md is nothing it or Groundwork gives.
    const codex = await compare(before, after, { client: 'codex' });
    expect(codex.lines).toEqual(['CLAUDE.md added: shadowed by AGENTS.md in ., which the client loads itself instead']);
  });

  it('says an override replaces the file of its directory and that the client loads it itself', async () => {
    const before = { 'AGENTS.md': 'ROOT\n', 'src/AGENTS.md': 'SRC\n' };
    const { lines } = await compare(before, { ...before, 'src/AGENTS.override.md': 'OVERRIDE\n' }, { cwd: 'src', client: 'codex' });
    expect(lines).toEqual(['src/AGENTS.override.md added: it replaces src/AGENTS.md for src; Codex loads it itself at start']);
  });

  it('says new content of a file the client loads itself when the model was not given it, and leaves it to the sources when it was', async () => {
    const before = { 'AGENTS.md': 'Root.\n' };
    const after = { 'AGENTS.md': 'Root, edited.\n' };
    const { lines } = await compare(before, after, { client: 'codex' });
    expect(lines).toEqual([`AGENTS.md changed (blob ${(await gitBlobOid('Root.\n')).slice(0, 7)} -> ${(await gitBlobOid('Root, edited.\n')).slice(0, 7)}); Codex loads it itself at start`]);
    const tracked = await compare(before, after, { client: 'codex', given: before });
    expect(tracked.report.ruleSet).toEqual({ status: 'unchanged', client: 'codex', changes: [] });
    expect(tracked.report.sources.map((check) => [check.path, check.status])).toEqual([['AGENTS.md', 'changed']]);
  });
});

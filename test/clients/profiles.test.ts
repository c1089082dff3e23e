import { describe, expect, it } from 'vitest';
import { PROFILES } from '../../src/clients/index.ts';
import { clientFromMcp } from '../../src/clients/mcp-names.ts';
import { FACTS } from '../../src/clients/facts/index.ts';
import { CLIENT_NAMES, clientLabel, parseClient } from '../../src/context/client.ts';
import { RULE_FILE_FORMATS, type FoundRuleFile, type ScopeKind } from '../../src/context/client-load.ts';

const SCOPES: Array<ScopeKind | undefined> = [undefined, 'always', 'globs', 'requested', 'never'];
const DIRS = ['', 'a', 'a/b', 'c'];
const NAMES = ['AGENTS.md', 'AGENTS.override.md', 'AGENTS.MD', 'CLAUDE.md', 'GEMINI.md', 'OTHER.md'];

/** Every kind of file in every place a profile tells apart. */
function everyFile(): FoundRuleFile[] {
  const files: FoundRuleFile[] = [];
  for (const dir of DIRS) for (const name of NAMES) files.push({ path: dir === '' ? name : `${dir}/${name}`, format: 'directory-file', dir, bytes: 40_000 });
  for (const format of RULE_FILE_FORMATS.filter((f) => f !== 'directory-file' && f !== 'import')) {
    for (const scope of SCOPES) for (const dir of DIRS) files.push({ path: `${dir}/.rules/${format}-${scope ?? 'none'}.mdc`, format, dir, ...(scope ? { scope } : {}) });
  }
  for (const importer of files.slice(0, 8)) files.push({ path: `docs/${importer.path}.md`, format: 'import', dir: 'docs', importedBy: importer.path, depth: 1, reference: 'x.md' });
  files.push({ path: 'docs/deep.md', format: 'import', dir: 'docs', importedBy: 'CLAUDE.md', depth: 5, reference: '2024.md' });
  return files;
}

describe('client profiles', () => {
  it('has one profile per client name, and each states its facts with a source and the version checked', () => {
    expect(Object.keys(PROFILES).sort()).toEqual([...CLIENT_NAMES].sort());
    for (const name of CLIENT_NAMES) {
      const profile = PROFILES[name];
      expect(profile.name).toBe(name);
      const ids = FACTS[name].map((fact) => fact.id);
      expect(new Set(ids).size).toBe(ids.length);
      for (const fact of FACTS[name]) {
        expect(fact.says.length).toBeGreaterThan(10);
        expect(fact.source.length).toBeGreaterThan(5);
        expect(fact.checked.length).toBeGreaterThan(0);
      }
    }
  });

  it('answers once per file, in order, and every answer cites a fact of its own profile, in every place, version and host', () => {
    const files = everyFile();
    for (const name of CLIENT_NAMES) {
      const facts = new Set(FACTS[name].map((fact) => fact.id));
      for (const cwd of DIRS) {
        for (const context of [{ cwd }, { cwd, version: '0.1.0' }, { cwd, version: '99.0.0' }, { cwd, variant: 'vscode' }, { cwd, variant: 'cli' }]) {
          const plain = files.filter((file) => file.format !== 'import');
          const answers = PROFILES[name].loads(plain, context);
          expect(answers).toHaveLength(plain.length);
          for (const importer of [...answers]) {
            for (const file of files.filter((candidate) => candidate.format === 'import')) answers.push(PROFILES[name].imports(file, importer, context));
          }
          for (const answer of answers) expect(facts.has(answer.fact) ? answer.fact : `${name}: ${answer.fact} is not one of its facts`).toBe(answer.fact);
        }
      }
    }
  });

  it('reads a client as the hosts name it, and refuses an unknown one by listing the known ones', () => {
    expect(parseClient('Claude-Code@2.1.332')).toEqual({ ok: true, client: { name: 'claude-code', version: '2.1.332' } });
    expect(parseClient('copilot:cli@1.0.25')).toEqual({ ok: true, client: { name: 'copilot', variant: 'cli', version: '1.0.25' } });
    expect(clientLabel({ name: 'copilot', variant: 'vscode' })).toBe('copilot:vscode');
    const unknown = parseClient('vim');
    expect(unknown.ok).toBe(false);
    if (!unknown.ok) expect(unknown.reason).toBe('unknown client "vim": must be one of none, codex, claude-code, gemini-cli, copilot, cursor (copilot:vscode, copilot:cli for one Copilot host), optionally with @version (e.g. claude-code@2.1.332)');
    expect(parseClient('codex:cli')).toEqual({ ok: false, reason: 'unknown client "codex:cli": codex has no hosts to choose' });
    expect(parseClient('codex@latest')).toEqual({ ok: false, reason: 'client version "latest" is not a version number such as 2.1.332' });
    expect(clientFromMcp({ name: 'some-editor', version: '1.0.0' })).toBeUndefined();
    expect(clientFromMcp(undefined)).toBeUndefined();
  });

  it('none loads nothing: every rule that applies is given', () => {
    expect(PROFILES.none.loads(everyFile(), { cwd: '' }).every((answer) => answer.load === 'never')).toBe(true);
    expect(PROFILES.none.imports(everyFile()[0] ?? { path: 'x', format: 'import', dir: '' }, { load: 'start', fact: 'x' }, { cwd: '' }).load).toBe('never');
  });
});

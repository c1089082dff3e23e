import { describe, expect, it } from 'vitest';
import type { AgentConfig } from '../../src/context/agents.ts';
import { MAX_SETTINGS_BYTES } from '../../src/context/settings/repository-file.ts';
import { settleSettings } from '../../src/context/settings/settle.ts';
import type { Snapshot } from '../../src/sources/snapshot.ts';
import type { MemoryFile } from '../support/memory-tree.ts';
import { memorySnapshot } from '../support/memory-tree.ts';
import { agent, assembleAt, effectiveOf, layerOf, outcomeOf, rulesAndSkills, skill } from '../support/settings.ts';

const REPO: Record<string, MemoryFile> = {
  'AGENTS.md': 'Use tabs.\n',
  '.agents/skills/lint/SKILL.md': skill('lint'),
};

const BOMB = ['a: &a ["x","x","x","x","x","x","x","x","x"]', ...'bcdefghi'.split('').map((k, i) => `${k}: &${k} [*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)}]`)].join('\n');

/** A file that must change nothing, and the field (or problem) its warning must name. */
const HOSTILE: Array<[string, MemoryFile, string]> = [
  ['turns on a provider', 'providers:\n  rules: { enabled: true }\n', 'providers.rules.enabled: can only be false'],
  ['grants a capability', 'capabilities: [repo:write, github:api]\n', 'capabilities: unknown setting'],
  ['changes the tools', 'tools:\n  - name: deploy\n    description: Ship it.\n', 'tools: unknown setting'],
  ['claims trust', 'trusted: true\nagent: entry\n', 'trusted: unknown setting'],
  ['gives a provider capabilities', 'providers:\n  skills: { requires: [], turns: all }\n', 'providers.skills.requires: unknown setting'],
  ['points roots outside the tree with ..', 'providers:\n  skills: { roots: ["../../etc/*"] }\n', 'providers.skills.roots[0]: path escapes the repository root'],
  ['points roots at an absolute path', 'providers:\n  skills: { roots: ["/etc/*"] }\n', 'providers.skills.roots[0]: path is absolute'],
  ['names a rule file outside the directory', 'providers:\n  rules: { filenames: ["../AGENTS.md"] }\n', 'providers.rules.filenames[0]: a file name, not a path'],
  ['names .. as a rule file', 'providers:\n  rules: { filenames: [".."] }\n', 'providers.rules.filenames[0]: a file name, not a path'],
  ['names an unknown provider', 'providers:\n  memory: { budget: 100 }\n', 'providers.memory: unknown provider; known providers: rules, skills'],
  ['gives a wrong type', 'providers:\n  skills: { roots: ".agents/skills/*" }\n', 'providers.skills.roots: Invalid input: expected array'],
  ['gives a budget that is not a number', 'providers:\n  skills: { budget: lots }\n', 'providers.skills.budget: Invalid input: expected number'],
  ['expands a YAML bomb through aliases', BOMB, 'aliases (*name) are not allowed'],
  ['merges anchors', 'base: &base { budget: 1 }\nproviders:\n  rules:\n    <<: *base\n', 'aliases (*name) are not allowed'],
  ['repeats a key', 'providers:\n  rules: { budget: 10 }\n  rules: { budget: 20 }\n', 'duplicated mapping key (line 3)'],
  ['holds two documents', 'providers: {}\n---\nproviders: {}\n', 'not valid YAML'],
  ['nests without end', `${'['.repeat(8_000)}${']'.repeat(8_000)}`, 'not valid YAML'],
  ['sets __proto__', 'providers:\n  __proto__: { budget: 1 }\n', 'providers.__proto__: unknown provider'],
  ['is huge', `# ${'x'.repeat(MAX_SETTINGS_BYTES)}\nproviders: {}\n`, `more than the ${MAX_SETTINGS_BYTES} a settings file may have`],
  ['is binary', new Uint8Array([0x70, 0x00, 0x01]), 'not UTF-8 text'],
  ['is a symlink out of the tree', { symlink: '../../etc/passwd' }, 'is a symlink to ../../etc/passwd that was not followed'],
  ['is a directory', 'dir', 'it is a dir, not a file'],
];

describe('a hostile .groundwork.yml changes nothing it must not', () => {
  it.each(HOSTILE)('ignores a file that %s, with a warning naming the problem', async (_, content, named) => {
    const files = content === 'dir' ? { ...REPO, '.groundwork.yml/inner.txt': 'x\n' } : { ...REPO, '.groundwork.yml': content };
    const baseline = await assembleAt(REPO);
    const { turn } = await assembleAt(files);

    expect(layerOf(turn, 'repository')).toMatchObject({ status: 'ignored' });
    expect(turn.settings?.warnings).toHaveLength(1);
    expect(turn.settings?.warnings[0]).toContain(named);
    expect(turn.settings?.warnings[0]).toMatch(/^\.groundwork\.yml ignored: .*; the other settings apply$/s);
    // The defaults apply: same tools, same capabilities' effects, same context, same digest.
    expect(turn.tools).toEqual(baseline.turn.tools);
    expect(turn.messages).toEqual(baseline.turn.messages);
    expect(turn.providers.map(({ durationMs: _, ...outcome }) => outcome)).toEqual(baseline.turn.providers.map(({ durationMs: _, ...outcome }) => outcome));
    expect(turn.settings?.providers).toEqual(baseline.turn.settings?.providers);
    expect(turn.digest).toBe(baseline.turn.digest);
  });

  it("cannot raise a budget or a limit above the host's cap: the cap applies and the digest is the default one", async () => {
    const baseline = await assembleAt(REPO);
    const yml = 'providers:\n  skills: { budget: 1000000, maxDirectories: 10000, maxDepth: 16 }\n  rules: { budget: 99999 }\n';
    const { turn } = await assembleAt({ ...REPO, '.groundwork.yml': yml });
    expect(effectiveOf(turn, 'skills')).toMatchObject({ budget: 16_000, config: { maxDirectories: 200, maxDepth: 4 } });
    expect(effectiveOf(turn, 'rules')).toMatchObject({ budget: 8_000 });
    expect(turn.settings?.warnings).toHaveLength(4);
    expect(turn.digest).toBe(baseline.turn.digest);
  });

  it('cannot run a provider the agent does not select', async () => {
    const rulesOnly: AgentConfig = { ...agent('entry'), name: 'rules-only', providers: ['rules'] };
    const yml = 'providers:\n  skills: { roots: [".agents/skills/*"], budget: 100 }\n';
    const { turn } = await assembleAt({ ...REPO, '.groundwork.yml': yml }, { agent: rulesOnly });
    expect(turn.providers.map((provider) => provider.name)).toEqual(['rules']);
    expect(turn.settings?.providers.map((provider) => provider.name)).toEqual(['rules']);
    expect(turn.entries.map((entry) => entry.title)).toEqual(['AGENTS.md']);
  });
});

describe('.groundwork.yml is YAML 1.2 whatever it says', () => {
  const DIRECTIVE = 'its %YAML 1.1 directive was not followed: read as YAML 1.2, where on, off, yes and no are text';

  // Under YAML 1.1 each of these is false and would turn rules off.
  it.each(['off', 'no', 'Off', 'NO', 'n'])('reads enabled: %s under a YAML 1.1 directive as text, so the file is refused and rules run', async (word) => {
    const baseline = await assembleAt(REPO);
    const { turn } = await assembleAt({ ...REPO, '.groundwork.yml': `%YAML 1.1\n---\nproviders:\n  rules: { enabled: ${word} }\n` });
    expect(layerOf(turn, 'repository')).toMatchObject({ status: 'ignored' });
    expect(turn.settings?.warnings).toEqual([`.groundwork.yml ignored: providers.rules.enabled: can only be false: the agent configuration decides which providers run; ${DIRECTIVE}; the other settings apply`]);
    expect(outcomeOf(turn, 'rules')).toMatchObject({ outcome: 'included' });
    expect(turn.digest).toBe(baseline.turn.digest);
  });

  it('reads on and yes as text too, without the directive as with it', async () => {
    for (const text of ['providers:\n  rules: { enabled: yes }\n', '%YAML 1.1\n---\nproviders:\n  rules: { enabled: on }\n']) {
      const { turn } = await assembleAt({ ...REPO, '.groundwork.yml': text });
      expect(layerOf(turn, 'repository'), text).toMatchObject({ status: 'ignored' });
      expect(turn.settings?.warnings[0], text).toContain('providers.rules.enabled: can only be false');
    }
  });

  it('applies a valid file that carries the directive, and says the directive was not followed', async () => {
    const { turn } = await assembleAt({ ...REPO, '.groundwork.yml': '%YAML 1.1\n---\nproviders:\n  rules: { enabled: false }\n' });
    expect(layerOf(turn, 'repository')).toMatchObject({ status: 'applied' });
    expect(outcomeOf(turn, 'rules')).toMatchObject({ outcome: 'disabled' });
    expect(turn.settings?.warnings).toEqual([`.groundwork.yml: ${DIRECTIVE}`]);
  });

  it('does not merge keys with << under %YAML 1.1', async () => {
    const { turn } = await assembleAt({ ...REPO, '.groundwork.yml': '%YAML 1.1\n---\nproviders:\n  rules:\n    <<: { enabled: false }\n' });
    expect(layerOf(turn, 'repository')).toMatchObject({ status: 'ignored' });
    expect(turn.settings?.warnings[0]).toContain('providers.rules.<<: unknown setting');
    expect(outcomeOf(turn, 'rules')).toMatchObject({ outcome: 'included' });
  });
});

describe('who reads .groundwork.yml', () => {
  const turnsOff = { ...REPO, '.groundwork.yml': 'providers:\n  rules: { enabled: false }\n' };

  it('an untrusted task reads nothing, not even the settings file; host layers still apply', async () => {
    const { turn, calls } = await assembleAt(turnsOff, { trusted: false, settings: { task: { skills: { budget: 500 } } } });
    expect(calls).toEqual({ resolve: 0, list: 0, read: 0, commitInfo: 0 });
    expect(layerOf(turn, 'repository')).toEqual({ layer: 'repository', status: 'not-read', reason: 'task is untrusted: repo:read is withheld' });
    expect(outcomeOf(turn, 'rules')).toMatchObject({ outcome: 'capability-gated' });
    expect(effectiveOf(turn, 'skills')).toMatchObject({ budget: 500, set: { budget: 'task' } });
  });

  it('an agent without repo:read reads nothing', async () => {
    const { turn, calls } = await assembleAt(turnsOff, { agent: agent('communicator') });
    expect(calls).toEqual({ resolve: 0, list: 0, read: 0, commitInfo: 0 });
    expect(layerOf(turn, 'repository')).toMatchObject({ status: 'not-read', reason: 'agent "communicator" does not grant repo:read' });
  });

  it('a trusted task reads it once, before the providers run', async () => {
    const { turn, calls } = await assembleAt(turnsOff);
    expect(outcomeOf(turn, 'rules')).toMatchObject({ outcome: 'disabled' });
    // The settings file and the one SKILL.md; rules, turned off, read nothing.
    expect(calls.read).toBe(2);
  });
});

describe('reading under a deadline', () => {
  it('reports a read that never answers as failed, and fails the repository providers rather than run them on settings that may not be theirs', async () => {
    const inner = await memorySnapshot({});
    const hanging: Snapshot = { ...inner, uri: inner.uri, list: inner.list, read: () => new Promise<never>(() => {}) };
    const settled = await settleSettings({
      registry: rulesAndSkills(),
      selection: 'all',
      turn: 0,
      settings: { deployment: { rules: { budget: 10 } } },
      repository: { snapshot: hanging },
      timeoutMs: 30,
    });
    expect(settled.report.layers[1]).toEqual({ layer: 'repository', status: 'failed', reason: '.groundwork.yml could not be read: no answer within 30 ms' });
    expect(settled.report.warnings).toEqual(['.groundwork.yml could not be read: no answer within 30 ms; the providers that read the repository did not run without it']);
    expect(settled.setups['rules']).toMatchObject({ budget: 10, unsettled: '.groundwork.yml could not be read: no answer within 30 ms' });
    expect(settled.setups['skills']).toMatchObject({ unsettled: '.groundwork.yml could not be read: no answer within 30 ms' });
  });

  it('reports a source failure as failed, never as absent', async () => {
    const inner = await memorySnapshot({});
    const failing: Snapshot = { ...inner, uri: inner.uri, list: inner.list, read: async (path) => ({ status: 'failed', path, reason: 'HTTP 502' }) };
    const settled = await settleSettings({ registry: rulesAndSkills(), selection: 'all', turn: 0, repository: { snapshot: failing } });
    expect(settled.report.layers[1]).toMatchObject({ status: 'failed', reason: '.groundwork.yml could not be read: HTTP 502' });
    expect(settled.setups['rules']?.unsettled).toBe('.groundwork.yml could not be read: HTTP 502');
  });

  it('leaves a file that is not valid a warning: the providers run with the other settings', async () => {
    const settled = await settleSettings({ registry: rulesAndSkills(), selection: 'all', turn: 0, repository: { snapshot: await memorySnapshot({ '.groundwork.yml': 'providers: [' }) } });
    expect(settled.report.layers[1]).toMatchObject({ status: 'ignored' });
    expect(settled.setups['rules']?.unsettled).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { createRegistry } from '../../src/context/registry.ts';
import { gatherContext } from '../../src/context/turn.ts';
import { DEFAULT_RULE_FILES, RulesConfigSchema } from '../../src/providers/rules/provider.ts';
import { DEFAULT_SKILL_ROOTS } from '../../src/providers/skills/config.ts';
import { createSkillsProvider } from '../../src/providers/skills/provider.ts';
import { countingSource } from '../support/counting-source.ts';
import { memorySnapshot } from '../support/memory-tree.ts';
import { agent, assembleAt, effectiveOf, layerOf, outcomeOf, rulesAndSkills, SETTINGS_COMMIT, skill } from '../support/settings.ts';
import { taskView } from '../support/task.ts';

const REPO = {
  'AGENTS.md': 'Agents rules.\n',
  'GEMINI.md': 'Gemini rules.\n',
  'CLAUDE.md': 'Claude rules.\n',
  '.agents/skills/lint/SKILL.md': skill('lint'),
  '.opencode/skills/deploy/SKILL.md': skill('deploy'),
  'tools/skills/bench/SKILL.md': skill('bench'),
};

const titles = (turn: { entries: Array<{ title: string }> }) => turn.entries.map((entry) => entry.title);
const indexOf = (turn: { messages: Array<{ content: string }> }) => turn.messages.at(-1)?.content ?? '';

describe('defaults', () => {
  it('finds skills under every ecosystem root with no settings at all, listing each root once', async () => {
    const roots = ['.agents', '.claude', '.codex', '.gemini', '.opencode'].map((dir) => `${dir}/skills`).concat('skills');
    const files = Object.fromEntries(roots.map((root, i) => [`${root}/skill-${i}/SKILL.md`, skill(`skill-${i}`)]));
    const { turn, calls } = await assembleAt(files, { registry: createRegistry([createSkillsProvider()]) });
    for (let i = 0; i < roots.length; i++) expect(indexOf(turn)).toContain(`- skill-${i}: The skill-${i} skill. (${roots[i]}/skill-${i}/SKILL.md)`);
    // One listing per root, one per skill directory, and the settings file: discovery stays bounded.
    expect(calls).toEqual({ resolve: 0, list: 12, read: 7, commitInfo: 0 });
    expect(effectiveOf(turn, 'skills')).toMatchObject({ enabled: true, budget: 16_000, config: { roots: DEFAULT_SKILL_ROOTS }, set: {} });
    expect(turn.settings?.layers).toEqual([
      { layer: 'deployment', status: 'none' },
      { layer: 'repository', status: 'none', reason: 'no .groundwork.yml at this commit' },
      { layer: 'task', status: 'none' },
    ]);
    expect(outcomeOf(turn, 'skills')?.reason).toBeUndefined();
  });

  it('keeps the directory budget over all six roots together', async () => {
    const files: Record<string, string> = { '.opencode/skills/late/SKILL.md': skill('late') };
    for (let i = 0; i < 250; i++) files[`.agents/skills/d${String(i).padStart(3, '0')}/notes.md`] = 'not a skill\n';
    const { turn, calls } = await assembleAt(files, { registry: createRegistry([createSkillsProvider()]) });
    expect(calls.list).toBe(200);
    expect(turn.entries).toEqual([]);
    expect(outcomeOf(turn, 'skills')?.reason).toContain('root .agents/skills/*/: stopped after listing 200 directories (maxDirectories)');
    // The roots after it were never listed: said so, not as if they had been.
    expect(outcomeOf(turn, 'skills')?.reason).toContain('root .opencode/skills/*/: not searched: the roots before it listed the 200 directories allowed (maxDirectories)');
    expect(outcomeOf(turn, 'skills')?.reason).not.toContain('root .opencode/skills/*/: stopped after listing');
  });

  it('warns about one name under two roots and selects neither, as for any duplicate', async () => {
    const { turn } = await assembleAt(
      { '.agents/skills/deploy/SKILL.md': skill('deploy'), '.claude/skills/deploy/SKILL.md': skill('deploy', 'A copy.') },
      { request: 'Ship it with $deploy.' },
    );
    const index = turn.entries.find((entry) => entry.title === 'Skills index');
    expect(index?.warnings.join('\n')).toContain('.agents/skills/deploy/SKILL.md');
    expect(index?.warnings.join('\n')).toContain('.claude/skills/deploy/SKILL.md');
    expect(titles(turn)).not.toContain('Selected skill: deploy');
  });
});

describe('each layer alone', () => {
  it('deployment: PROVIDER_CONFIG redirects rule files and says so in the outcome', async () => {
    const { turn } = await assembleAt(REPO, { settings: { deployment: { rules: { filenames: ['GEMINI.md'] } } } });
    expect(titles(turn)[0]).toBe('GEMINI.md');
    expect(outcomeOf(turn, 'rules')?.reason).toBe('settings: filenames=["GEMINI.md"] (PROVIDER_CONFIG)');
    expect(layerOf(turn, 'deployment')).toEqual({ layer: 'deployment', status: 'applied', source: 'PROVIDER_CONFIG' });
    expect(effectiveOf(turn, 'rules')).toMatchObject({ config: { filenames: ['GEMINI.md'] }, set: { filenames: 'deployment' } });
  });

  it('repository: .groundwork.yml at the pinned commit redirects skills and rule files', async () => {
    const yml = 'providers:\n  skills:\n    roots: ["tools/skills/*"]\n  rules:\n    filenames: [GEMINI.md, AGENTS.md]\n';
    const { turn } = await assembleAt({ ...REPO, '.groundwork.yml': yml });
    expect(titles(turn)).toEqual(['GEMINI.md', 'Skills index']);
    expect(indexOf(turn)).toContain('- bench: The bench skill.');
    expect(indexOf(turn)).not.toContain('deploy');
    expect(layerOf(turn, 'repository')).toEqual({ layer: 'repository', status: 'applied', source: `.groundwork.yml@${SETTINGS_COMMIT}` });
    expect(outcomeOf(turn, 'skills')?.reason).toBe('settings: roots=["tools/skills/*"] (.groundwork.yml)');
    expect(outcomeOf(turn, 'rules')?.reason).toBe('settings: filenames=["GEMINI.md","AGENTS.md"] (.groundwork.yml)');
  });

  it('task: the task layer redirects skills', async () => {
    const { turn } = await assembleAt(REPO, { settings: { task: { skills: { roots: ['tools/skills/*'] } } } });
    expect(indexOf(turn)).toContain('- bench:');
    expect(indexOf(turn)).not.toContain('- lint:');
    expect(layerOf(turn, 'task')).toEqual({ layer: 'task', status: 'applied' });
    expect(effectiveOf(turn, 'skills')?.set).toEqual({ roots: 'task' });
  });
});

describe('layers combined', () => {
  it('takes each field from the highest layer that sets it: task over repository over deployment over defaults', async () => {
    const yml = 'providers:\n  rules: { filenames: [GEMINI.md] }\n  skills: { roots: [".opencode/skills/*"], budget: 3000 }\n';
    const { turn } = await assembleAt(
      { ...REPO, '.groundwork.yml': yml },
      {
        settings: {
          deployment: { rules: { filenames: ['CLAUDE.md'], budget: 5_000 }, skills: { roots: ['.agents/skills/*'], maxDepth: 2 } },
          task: { skills: { roots: ['tools/skills/*'] } },
        },
      },
    );
    expect(effectiveOf(turn, 'rules')).toMatchObject({ budget: 5_000, config: { filenames: ['GEMINI.md'] }, set: { filenames: 'repository', budget: 'deployment' } });
    expect(effectiveOf(turn, 'skills')).toMatchObject({
      budget: 3_000,
      config: { roots: ['tools/skills/*'], maxDepth: 2 },
      set: { roots: 'task', maxDepth: 'deployment', budget: 'repository' },
    });
    expect(titles(turn)[0]).toBe('GEMINI.md');
    expect(indexOf(turn)).toContain('- bench:');
    expect(outcomeOf(turn, 'skills')?.reason).toBe('settings: roots=["tools/skills/*"] (task), maxDepth=2 (PROVIDER_CONFIG), budget=3000 (.groundwork.yml)');
    expect(turn.settings?.layers.map((layer) => layer.status)).toEqual(['applied', 'applied', 'applied']);
  });

  it('turns a provider off from any layer, and no higher layer can turn it back on', async () => {
    const calls = { skills: 0 };
    const registry = createRegistry([...rulesAndSkills().providers].map((p) => (p.name === 'skills' ? { ...p, run: (r: Parameters<typeof p.run>[0]) => (calls.skills++, p.run(r)) } : p)));
    const yml = 'providers:\n  skills: { enabled: false }\n';
    const { turn } = await assembleAt({ ...REPO, '.groundwork.yml': yml }, { registry, settings: { task: { skills: { roots: ['tools/skills/*'] } } } });
    expect(outcomeOf(turn, 'skills')).toMatchObject({ outcome: 'disabled', reason: 'turned off by .groundwork.yml (enabled: false)', tokens: 0 });
    expect(calls.skills).toBe(0);
    expect(effectiveOf(turn, 'skills')).toMatchObject({ enabled: false, set: { enabled: 'repository', roots: 'task' } });

    const deployed = await assembleAt(REPO, { settings: { deployment: { rules: { enabled: false } } } });
    expect(outcomeOf(deployed.turn, 'rules')).toMatchObject({ outcome: 'disabled', reason: 'turned off by PROVIDER_CONFIG (enabled: false)' });
  });
});

describe("caps are the host's", () => {
  it('lowers a budget and the runner holds the provider to it', async () => {
    const { turn } = await assembleAt({ 'AGENTS.md': 'word '.repeat(2_000) }, { settings: { task: { rules: { budget: 100 } } } });
    expect(outcomeOf(turn, 'rules')).toMatchObject({ outcome: 'included', tokens: 100 });
    expect(turn.entries[0]?.truncated).toBe(true);
  });

  it('brings repository and task values above the host’s cap down to it, with a warning naming the field', async () => {
    const yml = 'providers:\n  skills: { budget: 9000, maxDirectories: 5000 }\n  rules: { maxFileBytes: 99999999 }\n';
    const { turn } = await assembleAt(
      { ...REPO, '.groundwork.yml': yml },
      { settings: { deployment: { skills: { budget: 4_000, maxDirectories: 300 } }, task: { rules: { budget: 8_001 } } } },
    );
    expect(effectiveOf(turn, 'skills')).toMatchObject({ budget: 4_000, config: { maxDirectories: 300 } });
    expect(effectiveOf(turn, 'rules')).toMatchObject({ budget: 8_000, config: { maxFileBytes: 1024 * 1024 } });
    expect(turn.settings?.warnings).toEqual([
      ".groundwork.yml: skills.budget: 9000 is above this host's cap of 4000; the cap applies",
      ".groundwork.yml: skills.maxDirectories: 5000 is above this host's cap of 300; the cap applies",
      ".groundwork.yml: rules.maxFileBytes: 99999999 is above this host's cap of 1048576; the cap applies",
      "task: rules.budget: 8001 is above this host's cap of 8000; the cap applies",
    ]);
  });
});

describe('the digest', () => {
  const same = { ...REPO };

  it('is the same for the same inputs and the same effective settings, whichever layer set them', async () => {
    const a = await assembleAt(same, { settings: { deployment: { skills: { maxDepth: 3 } } } });
    const b = await assembleAt(same, { settings: { deployment: { skills: { maxDepth: 3 } } } });
    const c = await assembleAt(same, { settings: { task: { skills: { maxDepth: 3 } } } });
    expect(b.turn.digest).toBe(a.turn.digest);
    expect(c.turn.digest).toBe(a.turn.digest);
  });

  it('changes with the effective settings even when the rendered text does not', async () => {
    const a = await assembleAt(same);
    const b = await assembleAt(same, { settings: { deployment: { skills: { maxDepth: 3 } } } });
    expect(b.turn.messages).toEqual(a.turn.messages);
    expect(b.turn.digest).not.toBe(a.turn.digest);
  });
});

describe('reading .groundwork.yml', () => {
  it('reads nothing on a later turn where no provider runs', async () => {
    const { source, calls } = countingSource({
      repository: 'memory:test',
      resolve: async () => ({ status: 'ok', commit: 'a'.repeat(40) }),
      snapshot: () => snapshot,
    });
    const snapshot = await memorySnapshot({ '.groundwork.yml': 'providers: {}\n', 'AGENTS.md': 'x\n' });
    const gathered = await gatherContext({ registry: rulesAndSkills(), agent: agent('entry'), available: ['repo:read'], snapshot: source.snapshot('a'.repeat(40)), task: taskView(), turn: 1 });
    expect(calls).toEqual({ resolve: 0, list: 0, read: 0, commitInfo: 0 });
    expect(gathered.settings.layers[1]).toEqual({ layer: 'repository', status: 'not-read', reason: 'no provider runs on turn 1' });
    expect(gathered.outcomes.map((outcome) => outcome.outcome)).toEqual(['turn-gated', 'turn-gated']);
  });

  it('uses the defaults of the rule files when nothing is set', async () => {
    const { turn } = await assembleAt(REPO);
    expect(effectiveOf(turn, 'rules')?.config).toEqual({ ...RulesConfigSchema.parse({}), filenames: DEFAULT_RULE_FILES, maxFileBytes: 1024 * 1024 });
    expect(titles(turn)[0]).toBe('AGENTS.md');
  });
});

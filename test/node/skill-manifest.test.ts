/**
 * A commit's skills as the MCP skills extension serves them (providers/skills/skill-manifest,
 * skill-catalog), read from a real git repository: every file of a skill with the SHA-256 of its
 * raw bytes (not git's blob id) and its size, symlinks as what they point to, the frontmatter as
 * YAML 1.2's core schema reads it, and each skill the extension cannot serve named with why. The
 * index's own validation warnings come along; ranking is the skills index's.
 */
import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { SkillsConfigSchema } from '../../src/providers/skills/config.ts';
import { rankCatalog, skillCatalog } from '../../src/providers/skills/skill-catalog.ts';
import { MAX_SKILL_FILES } from '../../src/providers/skills/skill-manifest.ts';
import { taskWords } from '../../src/providers/skills/rank.ts';
import { createLocalGitSource } from '../../src/sources/git/local-source.ts';
import { createGitRepo, type GitFixture } from '../support/git-fixtures.ts';

let repo: GitFixture | undefined;
afterEach(() => repo?.remove());

const digest = (bytes: string | Uint8Array) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

async function catalogOf(build: (fixture: GitFixture) => void) {
  repo = createGitRepo();
  build(repo);
  const commit = repo.commitAll('skills');
  const snapshot = createLocalGitSource(repo.dir).snapshot(commit);
  return { commit, catalog: await skillCatalog(undefined, snapshot, SkillsConfigSchema.parse({}), { configured: true }, AbortSignal.timeout(30_000)) };
}

describe('a skill\u2019s manifest', () => {
  it('lists every file with the SHA-256 of its raw bytes and their size, SKILL.md first, a symlink as its target\u2019s bytes', async () => {
    const skill = '---\nname: release\ndescription: Cut a release.\nlicense: MIT\n---\nBody.\n';
    const bytes = Uint8Array.from([0, 255, 1, 254, 0xef, 0xbb, 0xbf]);
    const { catalog } = await catalogOf((fixture) => {
      fixture.write('.agents/skills/release/SKILL.md', skill);
      fixture.write('.agents/skills/release/assets/blob.bin', bytes);
      fixture.write('.agents/skills/release/references/GUIDE.md', '\ufeffGuide with a byte order mark.\n');
      fixture.symlink('../references/GUIDE.md', '.agents/skills/release/docs/link.md');
    });
    expect(catalog.warnings).toEqual([]);
    const [release] = catalog.skills;
    expect(release).toMatchObject({ name: 'release', dir: '.agents/skills/release', frontmatter: { name: 'release', description: 'Cut a release.', license: 'MIT' } });
    expect(release?.files).toEqual([
      { path: '.agents/skills/release/SKILL.md', digest: digest(skill), size: skill.length },
      { path: '.agents/skills/release/assets/blob.bin', digest: digest(bytes), size: bytes.length },
      { path: '.agents/skills/release/docs/link.md', digest: digest('\ufeffGuide with a byte order mark.\n'), size: Buffer.byteLength('\ufeffGuide with a byte order mark.\n') },
      { path: '.agents/skills/release/references/GUIDE.md', digest: digest('\ufeffGuide with a byte order mark.\n'), size: Buffer.byteLength('\ufeffGuide with a byte order mark.\n') },
    ]);
  });

  it('serves a skill.md as the skill\u2019s SKILL.md, and reads its frontmatter with YAML 1.2\u2019s core schema', async () => {
    const { catalog } = await catalogOf((fixture) => fixture.write('skills/lower/skill.md', '---\nname: lower\ndescription: Lower case file.\nallowed-tools: Read Grep\nmetadata:\n  owner: "team-a"\n---\nBody.\n'));
    expect(catalog.skills[0]).toMatchObject({ skillFile: 'skills/lower/skill.md', frontmatter: { name: 'lower', 'allowed-tools': 'Read Grep', metadata: { owner: 'team-a' } } });
  });

  it('names every skill it cannot serve and why, beside the index\u2019s own warnings', async () => {
    const { catalog } = await catalogOf((fixture) => {
      fixture.write('.agents/skills/misnamed/SKILL.md', '---\nname: other\ndescription: Not its directory.\n---\n');
      fixture.write('.agents/skills/numbers/SKILL.md', '---\nname: numbers\ndescription: Metadata that is not text.\nmetadata:\n  version: 2\n---\n');
      fixture.write('.agents/skills/dangling/SKILL.md', '---\nname: dangling\ndescription: A link to nowhere.\n---\n');
      fixture.symlink('nowhere.md', '.agents/skills/dangling/link.md');
      fixture.write('.agents/skills/latin/SKILL.md', Uint8Array.from([...Buffer.from('---\nname: latin\ndescription: caf'), 0xe9, ...Buffer.from('\n---\n')]));
    });
    expect(catalog.skills).toEqual([]);
    expect(catalog.warnings).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^\.agents\/skills\/misnamed\/SKILL\.md: name "other" does not match its directory "misnamed"/),
        '.agents/skills/misnamed/SKILL.md: not served over MCP: its frontmatter name "other" is not its directory\'s name "misnamed", which its skill:// URI ends in',
        '.agents/skills/numbers/SKILL.md: not served over MCP: its frontmatter metadata must map names to text (quote numbers and booleans: version: "1.0")',
        expect.stringMatching(/^\.agents\/skills\/dangling\/SKILL\.md: not served over MCP: \.agents\/skills\/dangling\/link\.md cannot be served \(target is not in the tree/),
        expect.stringMatching(/^\.agents\/skills\/latin\/SKILL\.md: /),
      ]),
    );
  });

  it('refuses a skill over the extension\u2019s 512 files, and a skill at the repository root', async () => {
    const { catalog } = await catalogOf((fixture) => {
      fixture.write('.agents/skills/big/SKILL.md', '---\nname: big\ndescription: Too many files.\n---\n');
      for (let i = 0; i < MAX_SKILL_FILES; i++) fixture.write(`.agents/skills/big/data/${String(i).padStart(3, '0')}.txt`, `${i}\n`);
      fixture.write('SKILL.md', '---\nname: root\ndescription: At the root.\n---\n');
    });
    expect(catalog.skills).toEqual([]);
    expect(catalog.warnings).toContain('.agents/skills/big/SKILL.md: not served over MCP: its directory holds more than 512 files, the extension\'s limit per skill');
  });

  it('ranks the catalog for a task\u2019s words as the skills index does, ties in name order', async () => {
    const { catalog } = await catalogOf((fixture) => {
      for (const [name, description] of [['alpha', 'Deploy the service.'], ['bravo', 'Write release notes for a version.'], ['charlie', 'Triage a bug.']]) fixture.write(`.agents/skills/${name}/SKILL.md`, `---\nname: ${name}\ndescription: ${description}\n---\n`);
    });
    expect(catalog.skills.map((skill) => skill.name)).toEqual(['alpha', 'bravo', 'charlie']);
    expect(rankCatalog(catalog, taskWords('Draft the release notes', [])).map((skill) => skill.name)).toEqual(['bravo', 'alpha', 'charlie']);
  });
});

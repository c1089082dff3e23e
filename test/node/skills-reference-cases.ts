/**
 * The corpus Groundwork's skill validation is measured on against the Agent Skills reference
 * validator (`skills-ref`, agentskills/agentskills): every case of the reference's
 * `tests/test_validator.py`, rebuilt here as fixtures (not copied), plus edge cases.
 *
 * `reference` is the set of rules the reference reports for the case, read from its
 * `validator.py`/`parser.py` and confirmed by running skills-ref side by side on this corpus;
 * its own tests assert one of them by substring, these are the whole set. `groundwork` is set
 * only where Groundwork differs on purpose, with the reason in `divergence`.
 */
import type { SkillRule } from '../../src/providers/skills/rules.ts';

export interface ReferenceCase {
  /** The reference test this ports (`test_…`), or `edge: …`. */
  name: string;
  /** Files of the case, relative to its own folder. */
  files: Record<string, string>;
  /** Symlinks of the case: path -> target, relative to its own folder. */
  links?: Record<string, string>;
  /** The directory validated (reference) and named by a literal root (Groundwork). */
  skillDir: string;
  reference: SkillRule[];
  /** The name the index shows, when the skill is indexed and that is worth checking. */
  indexedAs?: string;
  groundwork?: SkillRule[];
  divergence?: string;
}

const skill = (frontmatter: string, body = 'Body\n') => `---\n${frontmatter}---\n${body}`;
const basic = (name: string, more = '') => skill(`name: ${name}\ndescription: A test skill\n${more}`);

/** Every test of the reference's test_validator.py, in its order. */
export const REFERENCE_TESTS: ReferenceCase[] = [
  { name: 'test_valid_skill', skillDir: 'my-skill', files: { 'my-skill/SKILL.md': skill('name: my-skill\ndescription: A test skill\n', '# My Skill\n') }, reference: [] },
  { name: 'test_nonexistent_path', skillDir: 'nonexistent', files: {}, reference: ['skill-dir-missing'] },
  { name: 'test_not_a_directory', skillDir: 'file.txt', files: { 'file.txt': 'test' }, reference: ['skill-dir-not-a-directory'] },
  // The reference's directory is empty; git keeps no empty directory, so this one holds a README.
  { name: 'test_missing_skill_md', skillDir: 'my-skill', files: { 'my-skill/README.md': 'No skill file.\n' }, reference: ['skill-file-missing'] },
  { name: 'test_invalid_name_uppercase', skillDir: 'MySkill', files: { 'MySkill/SKILL.md': basic('MySkill') }, reference: ['name-lowercase'] },
  { name: 'test_name_too_long', skillDir: 'a'.repeat(70), files: { [`${'a'.repeat(70)}/SKILL.md`]: basic('a'.repeat(70)) }, reference: ['name-length'] },
  { name: 'test_name_leading_hyphen', skillDir: '-my-skill', files: { '-my-skill/SKILL.md': basic('-my-skill') }, reference: ['name-hyphen-edge'] },
  { name: 'test_name_consecutive_hyphens', skillDir: 'my--skill', files: { 'my--skill/SKILL.md': basic('my--skill') }, reference: ['name-consecutive-hyphens'] },
  { name: 'test_name_invalid_characters', skillDir: 'my_skill', files: { 'my_skill/SKILL.md': basic('my_skill') }, reference: ['name-characters'] },
  { name: 'test_name_directory_mismatch', skillDir: 'wrong-name', files: { 'wrong-name/SKILL.md': basic('correct-name') }, reference: ['name-directory'] },
  { name: 'test_unexpected_fields', skillDir: 'my-skill', files: { 'my-skill/SKILL.md': basic('my-skill', 'unknown_field: should not be here\n') }, reference: ['fields-unexpected'] },
  { name: 'test_valid_with_all_fields', skillDir: 'my-skill', files: { 'my-skill/SKILL.md': basic('my-skill', 'license: MIT\nmetadata:\n  author: Test\n') }, reference: [] },
  { name: 'test_allowed_tools_accepted', skillDir: 'my-skill', files: { 'my-skill/SKILL.md': basic('my-skill', 'allowed-tools: Bash(jq:*) Bash(git:*)\n') }, reference: [] },
  { name: 'test_i18n_chinese_name', skillDir: '技能', files: { '技能/SKILL.md': skill('name: 技能\ndescription: A skill with Chinese name\n') }, reference: [], indexedAs: '技能' },
  { name: 'test_i18n_russian_name_with_hyphens', skillDir: 'мой-навык', files: { 'мой-навык/SKILL.md': skill('name: мой-навык\ndescription: A skill with Russian name\n') }, reference: [], indexedAs: 'мой-навык' },
  { name: 'test_i18n_russian_lowercase_valid', skillDir: 'навык', files: { 'навык/SKILL.md': skill('name: навык\ndescription: A skill with Russian lowercase name\n') }, reference: [] },
  { name: 'test_i18n_russian_uppercase_rejected', skillDir: 'НАВЫК', files: { 'НАВЫК/SKILL.md': skill('name: НАВЫК\ndescription: A skill with Russian uppercase name\n') }, reference: ['name-lowercase'] },
  { name: 'test_description_too_long', skillDir: 'my-skill', files: { 'my-skill/SKILL.md': skill(`name: my-skill\ndescription: ${'x'.repeat(1100)}\n`) }, reference: ['description-length'] },
  { name: 'test_valid_compatibility', skillDir: 'my-skill', files: { 'my-skill/SKILL.md': basic('my-skill', 'compatibility: Requires Python 3.11+\n') }, reference: [] },
  { name: 'test_compatibility_too_long', skillDir: 'my-skill', files: { 'my-skill/SKILL.md': basic('my-skill', `compatibility: ${'x'.repeat(550)}\n`) }, reference: ['compatibility-length'] },
  // Directory precomposed, name decomposed (e + U+0301): equal after NFKC.
  { name: 'test_nfkc_normalization', skillDir: 'café', files: { 'café/SKILL.md': basic('cafe\u0301') }, reference: [], indexedAs: 'café' },
];

/** Cases the reference's tests do not cover, each probing one rule at its edge. */
export const EDGE_CASES: ReferenceCase[] = [
  { name: 'edge: a numeric name is text', skillDir: '2024', files: { '2024/SKILL.md': basic('2024') }, reference: [], indexedAs: '2024' },
  { name: 'edge: the name "null" is text', skillDir: 'null', files: { 'null/SKILL.md': basic('null') }, reference: [], indexedAs: 'null' },
  { name: 'edge: fullwidth letters normalise to ASCII', skillDir: 'my-skill', files: { 'my-skill/SKILL.md': basic('ｍｙ-ｓｋｉｌｌ') }, reference: [], indexedAs: 'my-skill' },
  { name: 'edge: decomposed directory, precomposed name', skillDir: 'cafe\u0301', files: { 'cafe\u0301/SKILL.md': basic('café') }, reference: [], indexedAs: 'café' },
  { name: 'edge: a ligature normalises to its letters', skillDir: 'file', files: { 'file/SKILL.md': basic('ﬁle') }, reference: [] },
  { name: 'edge: small roman numeral normalises to lowercase letters', skillDir: 'xii', files: { 'xii/SKILL.md': basic('ⅻ') }, reference: [], indexedAs: 'xii' },
  { name: 'edge: capital roman numeral normalises to uppercase', skillDir: 'Ⅻ', files: { 'Ⅻ/SKILL.md': basic('Ⅻ') }, reference: ['name-lowercase'] },
  { name: 'edge: combining vowel signs are not letters', skillDir: 'हिंदी', files: { 'हिंदी/SKILL.md': basic('हिंदी') }, reference: ['name-characters'] },
  { name: 'edge: two clauses broken at once', skillDir: 'My_Skill', files: { 'My_Skill/SKILL.md': basic('My_Skill') }, reference: ['name-lowercase', 'name-characters'] },
  { name: 'edge: 64 Han characters fit, counted as code points', skillDir: '技'.repeat(64), files: { [`${'技'.repeat(64)}/SKILL.md`]: basic('技'.repeat(64)) }, reference: [] },
  { name: 'edge: 65 Han characters do not', skillDir: '技'.repeat(65), files: { [`${'技'.repeat(65)}/SKILL.md`]: basic('技'.repeat(65)) }, reference: ['name-length'] },
  { name: 'edge: surrounding spaces of a quoted name are stripped', skillDir: 'my-skill', files: { 'my-skill/SKILL.md': basic('"  my-skill  "') }, reference: [] },
  { name: 'edge: empty name', skillDir: 'my-skill', files: { 'my-skill/SKILL.md': basic('""') }, reference: ['name-string'], indexedAs: 'my-skill' },
  { name: 'edge: blank name', skillDir: 'my-skill', files: { 'my-skill/SKILL.md': basic('"   "') }, reference: ['name-string'] },
  { name: 'edge: name that is a list', skillDir: 'my-skill', files: { 'my-skill/SKILL.md': skill('name:\n  - my-skill\ndescription: A test skill\n') }, reference: ['name-string'] },
  { name: 'edge: no name', skillDir: 'my-skill', files: { 'my-skill/SKILL.md': skill('description: A test skill\n') }, reference: ['name-missing'], indexedAs: 'my-skill' },
  { name: 'edge: no description', skillDir: 'my-skill', files: { 'my-skill/SKILL.md': skill('name: my-skill\n') }, reference: ['description-missing'] },
  { name: 'edge: blank description', skillDir: 'my-skill', files: { 'my-skill/SKILL.md': skill('name: my-skill\ndescription: "   "\n') }, reference: ['description-string'] },
  { name: 'edge: no description and an uppercase name', skillDir: 'My-skill', files: { 'My-skill/SKILL.md': skill('name: My-skill\n') }, reference: ['name-lowercase', 'description-missing'] },
  { name: 'edge: 1024 emoji are 1024 characters', skillDir: 'my-skill', files: { 'my-skill/SKILL.md': skill(`name: my-skill\ndescription: ${'🚀'.repeat(1024)}\n`) }, reference: [] },
  { name: 'edge: 1025 characters of description', skillDir: 'my-skill', files: { 'my-skill/SKILL.md': skill(`name: my-skill\ndescription: ${'x'.repeat(1025)}\n`) }, reference: ['description-length'] },
  // 1111 characters as written, 120 once whitespace is collapsed for the index line.
  { name: 'edge: a literal block counts its spaces and line breaks', skillDir: 'my-skill', files: { 'my-skill/SKILL.md': skill(`name: my-skill\ndescription: |\n${`  ${'x'.repeat(10)}${' '.repeat(90)}\n`.repeat(11)}`) }, reference: ['description-length'] },
  { name: 'edge: compatibility of exactly 500 characters', skillDir: 'my-skill', files: { 'my-skill/SKILL.md': basic('my-skill', `compatibility: ${'x'.repeat(500)}\n`) }, reference: [] },
  { name: 'edge: empty compatibility', skillDir: 'my-skill', files: { 'my-skill/SKILL.md': basic('my-skill', 'compatibility: ""\n') }, reference: [] },
  { name: 'edge: compatibility that is a mapping', skillDir: 'my-skill', files: { 'my-skill/SKILL.md': basic('my-skill', 'compatibility:\n  os: linux\n') }, reference: ['compatibility-string'] },
  { name: 'edge: several unexpected fields', skillDir: 'my-skill', files: { 'my-skill/SKILL.md': basic('my-skill', 'version: 1.0\ntags: x\nauthor: me\n') }, reference: ['fields-unexpected'] },
  { name: 'edge: metadata values that look like numbers', skillDir: 'my-skill', files: { 'my-skill/SKILL.md': basic('my-skill', 'metadata:\n  version: 1.0\n  stable: true\n') }, reference: [] },
  { name: 'edge: lowercase skill.md', skillDir: 'my-skill', files: { 'my-skill/skill.md': basic('my-skill') }, reference: [] },
  { name: 'edge: SKILL.md wins over skill.md', skillDir: 'my-skill', files: { 'my-skill/SKILL.md': basic('my-skill'), 'my-skill/skill.md': basic('Other') }, reference: [] },
  { name: 'edge: no frontmatter', skillDir: 'my-skill', files: { 'my-skill/SKILL.md': '# No frontmatter here\n' }, reference: ['frontmatter-missing'] },
  { name: 'edge: frontmatter never closed', skillDir: 'my-skill', files: { 'my-skill/SKILL.md': '---\nname: my-skill\ndescription: A test skill\n' }, reference: ['frontmatter-unclosed'] },
  { name: 'edge: YAML that does not parse', skillDir: 'my-skill', files: { 'my-skill/SKILL.md': skill('name: [invalid\ndescription: broken\n') }, reference: ['frontmatter-yaml'] },
  { name: 'edge: frontmatter that is a list', skillDir: 'my-skill', files: { 'my-skill/SKILL.md': skill('- just\n- a\n- list\n') }, reference: ['frontmatter-mapping'] },
  { name: 'edge: frontmatter with only a comment', skillDir: 'my-skill', files: { 'my-skill/SKILL.md': skill('# nothing here\n') }, reference: ['frontmatter-mapping'] },
  { name: 'edge: a key given twice', skillDir: 'my-skill', files: { 'my-skill/SKILL.md': basic('my-skill', 'name: my-skill\n') }, reference: ['frontmatter-yaml'] },
  { name: 'edge: flow-style allowed-tools', skillDir: 'my-skill', files: { 'my-skill/SKILL.md': basic('my-skill', 'allowed-tools: [Bash, Read]\n') }, reference: ['frontmatter-yaml'] },
  { name: 'edge: an anchor and an alias', skillDir: 'my-skill', files: { 'my-skill/SKILL.md': skill('name: &n my-skill\ndescription: *n\n') }, reference: ['frontmatter-yaml'] },
  { name: 'edge: an explicit tag', skillDir: 'my-skill', files: { 'my-skill/SKILL.md': basic('!!str my-skill') }, reference: ['frontmatter-yaml'] },
  {
    name: 'edge: a symlinked skill directory',
    skillDir: 'my-skill',
    files: { 'real/my-skill/SKILL.md': basic('my-skill') },
    links: { 'my-skill': 'real/my-skill' },
    reference: [],
    groundwork: ['skill-dir-not-a-directory'],
    divergence: 'Groundwork never enters a symlinked directory: at a pinned commit a link is text, and following it could leave the tree.',
  },
  {
    name: 'edge: --- inside a value',
    skillDir: 'my-skill',
    files: { 'my-skill/SKILL.md': skill(`name: my-skill\ndescription: Uses --- as a separator\ncompatibility: ${'x'.repeat(600)}\n`) },
    reference: [],
    groundwork: ['compatibility-length'],
    divergence: 'The reference ends the frontmatter at the first "---" anywhere (str.split), so it never sees the long compatibility; Groundwork ends it at a --- line, as YAML frontmatter is defined.',
  },
  {
    name: 'edge: a byte order mark before the frontmatter',
    skillDir: 'my-skill',
    files: { 'my-skill/SKILL.md': `\ufeff${basic('my-skill')}` },
    reference: ['frontmatter-missing'],
    groundwork: [],
    divergence: 'Groundwork sources decode UTF-8 with the byte order mark removed, as editors show the file; the reference reads it as a character before "---".',
  },
];

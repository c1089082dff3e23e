import { describe, expect, it } from 'vitest';
import { parseRoot } from '../../src/providers/skills/config.ts';
import { parseFrontmatter } from '../../src/providers/frontmatter.ts';
import { validateSkill } from '../../src/providers/skills/validate.ts';

const at = (dir: string) => ({ dir, path: `${dir}/SKILL.md` });

describe('SKILL.md validation', () => {
  it('accepts CRLF line endings, a folded description and the optional fields', () => {
    const text = '---\r\nname: pdf\r\ndescription: >-\r\n  Fill PDF forms\r\n  and merge files.\r\nallowed-tools: Bash\r\nlicense: MIT\r\n---\r\nBody\r\n';
    expect(validateSkill(at('skills/pdf'), text)).toEqual({ skill: { name: 'pdf', description: 'Fill PDF forms and merge files.', path: 'skills/pdf/SKILL.md' }, warnings: [] });
  });

  it('names every broken clause of the name rule, one warning per rule', () => {
    const result = validateSkill(at('skills/-Bad--name_'), '---\nname: -Bad--name_\ndescription: x\n---\n');
    expect(result.warnings).toEqual([
      'skills/-Bad--name_/SKILL.md: name "-Bad--name_" must be lowercase [name-lowercase]',
      'skills/-Bad--name_/SKILL.md: name "-Bad--name_" must not start or end with - [name-hyphen-edge]',
      'skills/-Bad--name_/SKILL.md: name "-Bad--name_" must not contain -- [name-consecutive-hyphens]',
      'skills/-Bad--name_/SKILL.md: name "-Bad--name_" may contain only letters, digits and - [name-characters]',
    ]);
    expect(result.skill?.name).toBe('-Bad--name_');
  });

  it('falls back to the directory name for a missing, empty or non-text name', () => {
    expect(validateSkill(at('skills/tool'), '---\ndescription: x\n---\n')).toMatchObject({
      skill: { name: 'tool' },
      warnings: ['skills/tool/SKILL.md: frontmatter has no name; indexed as "tool" [name-missing]'],
    });
    expect(validateSkill(at('skills/tool'), '---\nname:\ndescription: x\n---\n').warnings).toEqual(['skills/tool/SKILL.md: name is empty; indexed as "tool" [name-string]']);
    expect(validateSkill(at('skills/tool'), '---\nname:\n  - tool\ndescription: x\n---\n').warnings).toEqual(['skills/tool/SKILL.md: name is not text; indexed as "tool" [name-string]']);
  });

  it('reads scalars as the text written, as strictyaml does: a number or true is a name', () => {
    expect(validateSkill(at('skills/2024'), '---\nname: 2024\ndescription: 1.0\n---\n')).toEqual({ skill: { name: '2024', description: '1.0', path: 'skills/2024/SKILL.md' }, warnings: [] });
    expect(validateSkill(at('skills/true'), '---\nname: true\ndescription: null\n---\n').skill).toEqual({ name: 'true', description: 'null', path: 'skills/true/SKILL.md' });
  });

  it('reads frontmatter as YAML 1.2 whatever a directive says: on, off, yes and no are text, and the directive is named', () => {
    expect(validateSkill(at('skills/on'), '---\nname: on\ndescription: yes\nlicense: off\ncompatibility: no\n---\n').skill).toEqual({ name: 'on', description: 'yes', path: 'skills/on/SKILL.md' });
    const directive = parseFrontmatter('%YAML 1.1\n---\nname: off\ndescription: yes\nmetadata:\n  <<:\n    a: b\n');
    expect(directive).toEqual({
      ok: true,
      data: { name: 'off', description: 'yes', metadata: { '<<': { a: 'b' } } },
      strict: [],
      warnings: ['its %YAML 1.1 directive was not followed: read as YAML 1.2, where on, off, yes and no are text'],
    });
    // In a SKILL.md the directive line must end the frontmatter's --- block, so the skill is skipped, naming why.
    expect(validateSkill(at('skills/x'), '---\n%YAML 1.1\nname: x\ndescription: on\n---\n').warnings).toEqual([
      'skills/x/SKILL.md: skipped: frontmatter is not valid YAML: a %YAML or %TAG directive must be followed by a --- line (line 3) [frontmatter-yaml]',
    ]);
  });

  it('warns about a name longer than 64 characters, counting code points', () => {
    const name = 'a'.repeat(65);
    expect(validateSkill(at(`s/${name}`), `---\nname: ${name}\ndescription: x\n---\n`).warnings).toEqual([`s/${name}/SKILL.md: name "${name}" has 65 characters; at most 64 are allowed [name-length]`]);
    const han = '技'.repeat(64);
    expect(validateSkill(at(`s/${han}`), `---\nname: ${han}\ndescription: x\n---\n`).warnings).toEqual([]);
  });

  it('keeps a skill at the repository root without comparing its name to a directory', () => {
    expect(validateSkill({ dir: '', path: 'SKILL.md' }, '---\nname: whole-repo\ndescription: x\n---\n')).toEqual({ skill: { name: 'whole-repo', description: 'x', path: 'SKILL.md' }, warnings: [] });
    expect(validateSkill({ dir: '', path: 'SKILL.md' }, '---\ndescription: x\n---\n')).toEqual({
      warnings: ['SKILL.md: skipped: frontmatter has no name, and a skill at the repository root has no directory name to use instead [name-missing]'],
    });
  });

  it('skips frontmatter that is empty or not a mapping, has duplicate keys, or multiplies aliases', () => {
    expect(validateSkill(at('s/list'), '---\n- a\n- b\n---\n').warnings).toEqual(['s/list/SKILL.md: skipped: frontmatter is not a YAML mapping [frontmatter-mapping]']);
    expect(validateSkill(at('s/empty'), '---\n# nothing\n---\nBody\n').warnings).toEqual(['s/empty/SKILL.md: skipped: frontmatter is not a YAML mapping [frontmatter-mapping]']);
    expect(validateSkill(at('s/dup'), '---\nname: dup\nname: dup\ndescription: x\n---\n').warnings[0]).toMatch(/^s\/dup\/SKILL\.md: skipped: frontmatter is not valid YAML: duplicated mapping key \(line 3\) \[frontmatter-yaml\]$/);
    const bomb = `---\nname: bomb\na: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [${'*a, '.repeat(9)}*a]\nc: &c [${'*b, '.repeat(9)}*b]\ndescription: x\n---\n`;
    expect(validateSkill(at('s/bomb'), bomb).warnings[0]).toMatch(/^s\/bomb\/SKILL\.md: skipped: frontmatter is not valid YAML: .*alias/i);
  });

  it('skips an empty or non-text description, and still reports the other fields', () => {
    expect(validateSkill(at('s/e'), '---\nname: e\ndescription: "   "\n---\n').warnings).toEqual(['s/e/SKILL.md: skipped: description is empty [description-string]']);
    expect(validateSkill(at('s/n'), '---\nname: N\ndescription:\n  a: b\n---\n').warnings).toEqual([
      's/n/SKILL.md: name "N" must be lowercase [name-lowercase]',
      's/n/SKILL.md: name "N" does not match its directory "n" [name-directory]',
      's/n/SKILL.md: skipped: description is not text [description-string]',
    ]);
  });

  it('reports YAML that strictyaml refuses, with its line, and indexes the skill anyway', () => {
    const text = '---\nname: &n flow\ndescription: !!str Uses flow style.\nallowed-tools: [Bash, Read]\n---\nBody\n';
    expect(validateSkill(at('s/flow'), text)).toEqual({
      skill: { name: 'flow', description: 'Uses flow style.', path: 's/flow/SKILL.md' },
      warnings: [
        "s/flow/SKILL.md: frontmatter uses YAML that strict parsers (the reference validator's strictyaml) refuse: an anchor (line 2), an explicit tag (line 3), a flow collection ([...] or {...}) (line 4) [frontmatter-yaml]",
      ],
    });
  });

  it('names unexpected fields, quoted and bounded, sorted', () => {
    const text = `---\nname: x\ndescription: y\nversion: 1\n"a\\nb": 2\n${'k'.repeat(60)}: 3\n---\n`;
    expect(validateSkill(at('s/x'), text).warnings).toEqual([
      `s/x/SKILL.md: unexpected frontmatter fields "a\\nb", "${'k'.repeat(39)}…", "version"; the spec allows only allowed-tools, compatibility, description, license, metadata, name [fields-unexpected]`,
    ]);
  });

  it('warns about compatibility that is not text or longer than 500 characters', () => {
    expect(validateSkill(at('s/c'), `---\nname: c\ndescription: y\ncompatibility: ${'x'.repeat(500)}\n---\n`).warnings).toEqual([]);
    expect(validateSkill(at('s/c'), `---\nname: c\ndescription: y\ncompatibility: ${'x'.repeat(501)}\n---\n`).warnings).toEqual([
      's/c/SKILL.md: compatibility has 501 characters; the spec allows at most 500 [compatibility-length]',
    ]);
    expect(validateSkill(at('s/c'), '---\nname: c\ndescription: y\ncompatibility:\n  os: linux\n---\n').warnings).toEqual(['s/c/SKILL.md: compatibility is not text [compatibility-string]']);
  });
});

describe('root patterns', () => {
  it('splits a literal prefix from wildcard segments', () => {
    expect(parseRoot('.agents/skills/*/')).toEqual({ ok: true, root: { text: '.agents/skills/*/', prefix: '.agents/skills', rest: [{ kind: 'any' }] } });
    expect(parseRoot('packages/*/skills/**')).toMatchObject({ ok: true, root: { prefix: 'packages', rest: [{ kind: 'any' }, { kind: 'literal', name: 'skills' }, { kind: 'deep' }] } });
  });

  it('refuses roots that leave the repository or mix * into a name', () => {
    expect(parseRoot('../elsewhere/*')).toEqual({ ok: false, reason: 'path escapes the repository root' });
    expect(parseRoot('/abs/*')).toEqual({ ok: false, reason: 'path is absolute' });
    expect(parseRoot('skills/foo*')).toEqual({ ok: false, reason: 'segment "foo*" mixes * with a name; use * or ** alone' });
  });
});

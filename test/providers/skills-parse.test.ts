import { describe, expect, it } from 'vitest';
import { parseRoot } from '../../src/providers/skills/config.ts';
import { selectionTokens } from '../../src/providers/skills/select.ts';
import { validateSkill } from '../../src/providers/skills/validate.ts';

const at = (dir: string) => ({ dir, path: `${dir}/SKILL.md` });

describe('SKILL.md validation', () => {
  it('accepts CRLF line endings, a folded description and extra fields', () => {
    const text = '---\r\nname: pdf\r\ndescription: >-\r\n  Fill PDF forms\r\n  and merge files.\r\nallowed-tools: Bash\r\n---\r\nBody\r\n';
    expect(validateSkill(at('skills/pdf'), text)).toEqual({ skill: { name: 'pdf', description: 'Fill PDF forms and merge files.', path: 'skills/pdf/SKILL.md' }, warnings: [] });
  });

  it('names every broken clause of the name rule', () => {
    const result = validateSkill(at('skills/-Bad--name-'), '---\nname: -Bad--name-\ndescription: x\n---\n');
    expect(result.warnings).toEqual(['skills/-Bad--name-/SKILL.md: name "-Bad--name-" may contain only a-z, 0-9 and -, must not start or end with -, must not contain --']);
    expect(result.skill?.name).toBe('-Bad--name-');
  });

  it('falls back to the directory name for a missing or non-text name', () => {
    expect(validateSkill(at('skills/tool'), '---\ndescription: x\n---\n')).toMatchObject({
      skill: { name: 'tool' },
      warnings: ['skills/tool/SKILL.md: frontmatter has no name; indexed as "tool"'],
    });
    expect(validateSkill(at('skills/2024'), '---\nname: 2024\ndescription: x\n---\n').warnings).toEqual(['skills/2024/SKILL.md: name is not text; indexed as "2024"']);
  });

  it('warns about a name longer than 64 characters', () => {
    const name = 'a'.repeat(65);
    expect(validateSkill(at(`s/${name}`), `---\nname: ${name}\ndescription: x\n---\n`).warnings).toEqual([`s/${name}/SKILL.md: name "${name}" is longer than 64 characters`]);
  });

  it('skips frontmatter that is not a mapping, has duplicate keys, or multiplies aliases', () => {
    expect(validateSkill(at('s/list'), '---\n- a\n- b\n---\n').warnings).toEqual(['s/list/SKILL.md: skipped: frontmatter is not a YAML mapping']);
    expect(validateSkill(at('s/dup'), '---\nname: dup\nname: dup\ndescription: x\n---\n').warnings[0]).toMatch(/^s\/dup\/SKILL\.md: skipped: frontmatter is not valid YAML: Map keys must be unique \(line 3\)$/);
    const bomb = `---\nname: bomb\na: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [${'*a, '.repeat(9)}*a]\nc: &c [${'*b, '.repeat(9)}*b]\ndescription: x\n---\n`;
    expect(validateSkill(at('s/bomb'), bomb).warnings[0]).toMatch(/^s\/bomb\/SKILL\.md: skipped: frontmatter is not valid YAML: .*alias/i);
  });

  it('skips an empty or non-text description', () => {
    expect(validateSkill(at('s/e'), '---\nname: e\ndescription: "   "\n---\n').warnings).toEqual(['s/e/SKILL.md: skipped: description is empty']);
    expect(validateSkill(at('s/n'), '---\nname: n\ndescription: [a, b]\n---\n').warnings).toEqual(['s/n/SKILL.md: skipped: description is not text']);
  });
});

describe('selection tokens', () => {
  it('finds $name tokens and leaves prices, variables and words alone', () => {
    expect(selectionTokens('please use $release-notes here, then $lint. Not $100, $HOME, a$b, $$x, $snake_case or ${x}.')).toEqual(['release-notes', 'lint']);
  });

  it('lists each name once, in order of first mention', () => {
    expect(selectionTokens('$b then $a then $b')).toEqual(['b', 'a']);
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

import { describe, expect, it } from 'vitest';
import { caseVariantMentions, isSkillName, normaliseSkillName, skillMentions, skillNameProblems } from '../../src/lib/skill-names.ts';

const rules = (raw: string) => skillNameProblems(normaliseSkillName(raw)).map((problem) => problem.rule);

describe('the skill name rule', () => {
  it('accepts lowercase Unicode letters and digits with inner hyphens', () => {
    for (const name of ['pdf-processing', '技能', 'навык', 'мой-навык', 'ⅻ-tools', '٣-steps', 'ǆ']) expect([name, rules(name)]).toEqual([name, []]);
  });

  it('refuses uppercase in any script, with the rule that says so', () => {
    expect(rules('НАВЫК')).toEqual(['name-lowercase']);
    expect(rules('MySkill')).toEqual(['name-lowercase']);
    // NFKC turns the roman numeral twelve into XII, which is not lowercase.
    expect(rules('Ⅻ')).toEqual(['name-lowercase']);
  });

  it('compares names after stripping and NFKC, so compatibility forms are the same name', () => {
    expect(normaliseSkillName('cafe\u0301')).toBe('café');
    expect(normaliseSkillName('ｍｙ-ｓｋｉｌｌ')).toBe('my-skill');
    expect(normaliseSkillName('\u3000ﬁle\u2003')).toBe('file');
    // Python's strip keeps U+FEFF, and so does the rule: it is not a letter.
    expect(rules('\ufeffname')).toEqual(['name-characters']);
  });

  it('refuses combining marks, underscores and emoji as name characters', () => {
    expect(rules('हिंदी')).toEqual(['name-characters']);
    expect(rules('my_skill')).toEqual(['name-characters']);
    expect(rules('ship-🚀')).toEqual(['name-characters']);
  });

  it('counts length in code points after normalisation', () => {
    expect(rules('a'.repeat(64))).toEqual([]);
    expect(rules('a'.repeat(65))).toEqual(['name-length']);
    expect(rules('𝒶'.repeat(64))).toEqual([]);
    expect(isSkillName('')).toBe(false);
  });

  it('reports hyphens at either end and doubled, each once', () => {
    expect(rules('-a-')).toEqual(['name-hyphen-edge']);
    expect(rules('a--b')).toEqual(['name-consecutive-hyphens']);
  });
});

describe('$name mentions', () => {
  it('finds $name tokens and leaves prices, variables and words alone', () => {
    expect(skillMentions('please use $release-notes here, then $lint. Not $100, $HOME, a$b, $$x, $snake_case, $-x or ${x}.')).toEqual(['release-notes', 'lint']);
  });

  it('lists each name once, in order of first mention', () => {
    expect(skillMentions('$b then $a then $b')).toEqual(['b', 'a']);
  });

  it('reads Unicode names and normalises them, so a decomposed name selects a precomposed one', () => {
    expect(skillMentions('Use $技能, $мой-навык and $cafe\u0301; not $НАВЫК or $Ⅻ.')).toEqual(['技能', 'мой-навык', 'café']);
    expect(skillMentions('Use $ｍｙ-ｓｋｉｌｌ now')).toEqual(['my-skill']);
  });

  it('ends a name only where a name cannot go on', () => {
    expect(skillMentions('$навык, $技能を使う, ($lint)')).toEqual(['навык', '技能を使う', 'lint']);
  });
});

describe('$Name mentions that are a name but for their case', () => {
  it('finds them, in any script, once each, and leaves names, prices and non-names alone', () => {
    expect(caseVariantMentions('Use $PDF, $Release-Notes, $НАВЫК and $PDF again; not $pdf, $100, $HOME_DIR or $A--B.')).toEqual(['PDF', 'Release-Notes', 'НАВЫК']);
  });
});


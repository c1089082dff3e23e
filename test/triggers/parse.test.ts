import { describe, expect, it } from 'vitest';
import { repoAllowed } from '../../src/triggers/slack/allowlist.ts';
import { parseSlackCommand } from '../../src/triggers/slack/command.ts';
import { collectSkills, mentions } from '../../src/triggers/text.ts';

describe('slash command text', () => {
  it.each([
    ['acme/widgets fix it', { owner: 'acme', repo: 'widgets', cwd: '', request: 'fix it', skills: [] }],
    ['acme/widgets#42 review $tdd', { owner: 'acme', repo: 'widgets', pullNumber: 42, cwd: '', request: 'review $tdd', skills: ['tdd'] }],
    ['acme/widgets@feature/x-1 explain', { owner: 'acme', repo: 'widgets', ref: 'feature/x-1', cwd: '', request: 'explain' }],
    ['acme/widgets:./docs//guide/ tidy', { owner: 'acme', repo: 'widgets', cwd: 'docs/guide', request: 'tidy' }],
    ['acme/my.repo_2#3:src/app   spaced   words  ', { repo: 'my.repo_2', pullNumber: 3, cwd: 'src/app', request: 'spaced   words' }],
    ['  acme/widgets\tuse $a-b and $a-b, not $5 ', { request: 'use $a-b and $a-b, not $5', skills: ['a-b'], paths: [] }],
    ['acme/widgets:services/api +packages/web +./packages/db/x.sql why +1 this', { cwd: 'services/api', paths: ['packages/web', 'packages/db/x.sql'], request: 'why +1 this' }],
  ])('parses %j', (text, expected) => {
    const parsed = parseSlackCommand(text);
    expect(parsed.ok).toBe(true);
    if (parsed.ok) expect(parsed.command).toMatchObject(expected);
  });

  it.each([
    ['acme/widgets +../etc explain', 'path `+../etc`: must not contain ..'],
    ['acme/widgets +/etc/passwd explain', 'path `+/etc/passwd`: path is absolute'],
    ['acme/widgets + explain', '`+` alone names nothing'],
    ['acme/widgets +packages/web', 'say what you want done after the repository'],
  ])('refuses %j, saying why', (text, problem) => {
    expect(parseSlackCommand(text)).toEqual({ ok: false, problem: expect.stringContaining(problem) });
  });

  it.each(['acme/widgets#0 x', 'acme/widgets#x do', '/widgets go', 'acme/wid$x go', 'acme/widgets#1#2 go', 'acme/widgets@:src go', 'acme/widgets:/etc read'])('refuses %j', (text) => {
    expect(parseSlackCommand(text).ok).toBe(false);
  });
});

describe('team allowlist', () => {
  const teams = { T1: ['acme/widgets', 'tools/*'] };
  it.each([
    ['T1', 'acme/widgets', true],
    ['T1', 'ACME/Widgets', true],
    ['T1', 'acme/gadgets', false],
    ['T1', 'tools/anything', true],
    ['T2', 'acme/widgets', false],
    ['constructor', 'acme/widgets', false],
    // Names that are no repository never match an owner's wildcard, whoever asks.
    ['T1', 'tools/..', false],
    ['T1', 'tools/.', false],
    ['T1', 'TOOLS/..', false],
    ['T1', 'tools/x.git', false],
    ['T1', 'tools/a/b', false],
    ['T1', 'tools/', false],
  ])('team %s, %s -> %s', (team, repo, allowed) => {
    expect(repoAllowed(teams, team, repo)).toBe(allowed);
  });
});

describe('mentions and skills', () => {
  it('finds the handle case-insensitively, but not inside words, addresses, code or quotes', () => {
    expect(mentions('@GroundWork, please look', 'groundwork')).toBe(true);
    expect(mentions('cc @groundwork-bot', 'groundwork')).toBe(false);
    expect(mentions('see org/@groundwork', 'groundwork')).toBe(false);
    expect(mentions('```\n@groundwork\n```\nok', 'groundwork')).toBe(false);
  });

  it('collects unique lower-case skill names in order, skipping code', () => {
    expect(collectSkills('$b then $a then $b; `$c` and\n```sh\necho $d\n```\n$e.')).toEqual(['b', 'a', 'e']);
  });
});

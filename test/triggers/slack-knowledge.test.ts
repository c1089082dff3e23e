import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { durableKnowledgeService } from '../../src/knowledge/durable-knowledge-service.ts';
import { USAGE } from '../../src/triggers/slack/command.ts';
import { knowledgeScope } from '../../src/knowledge/scope.ts';
import { githubWebRoot } from '../../src/sources/github/location.ts';
import { command, send } from './slack-support.ts';
import { testEnv } from './support.ts';

const TEAM = 'slack:T0001';
const SHA = '0123456789abcdef0123456789abcdef01234567';
const knowledge = durableKnowledgeService(env);
const GITHUB_API_URL = testEnv().GITHUB_API_URL ?? '';
const WEB = githubWebRoot(GITHUB_API_URL);
function scopeOf(fullName: string, tenant = TEAM) {
  const found = knowledgeScope(tenant, fullName, { githubApiUrl: GITHUB_API_URL, gitAllowedHosts: [], localRepositories: {} });
  if (!found.ok) throw new Error(found.reason);
  return found.scope;
}
const stored = async (fullName: string) => (await knowledge.list(scopeOf(fullName), { status: 'all' }, null, 50)).items;

describe('/groundwork remember', () => {
  it('records a fact for the team, sourced to a pinned file, and answers with its id and review date', async () => {
    const url = `${WEB}/tools/remember/blob/${SHA}/docs/deploy%20notes.md#L10-L20`;
    const { status, body, tasks } = await send(await command(`remember tools/remember "Deploys need AWS_REGION set." ${url}`));
    expect(status).toBe(200);
    const [k] = await stored('tools/remember');
    expect(body).toEqual({
      response_type: 'ephemeral',
      text: `Remembered \`${k?.id}\` for \`tools/remember\` (fact), review by 2027-02-18. It cites \`docs/deploy notes.md@${SHA.slice(0, 12)}\`, which tasks check against their commit.`,
    });
    expect(k).toMatchObject({ kind: 'fact', statement: 'Deploys need AWS_REGION set.', author: 'slack:T0001/U2147483697', source: { uri: url, path: 'docs/deploy notes.md', revision: SHA }, reviewBy: '2027-02-18', status: 'active' });
    expect(tasks.calls).toEqual([]);
    // Another tenant (a REST tenant) cannot read the team's knowledge by its id.
    expect(await knowledge.read('api:acme', k?.id ?? '')).toEqual({ status: 'not-found' });
  });

  it('reads typographic quotes and a link as Slack formats it, keeping any other URL as the source', async () => {
    const { body } = await send(await command('remember tools/quotes “Tabs, not “spaces”.” <https://wiki.example.test/style|style guide>'));
    const [k] = await stored('tools/quotes');
    expect(body.text).toBe(`Remembered \`${k?.id}\` for \`tools/quotes\` (fact), review by 2027-02-18.`);
    expect(k).toMatchObject({ statement: 'Tabs, not “spaces”.', source: { uri: 'https://wiki.example.test/style' } });
    expect(k?.source.path).toBeUndefined();
  });

  it.each([
    ['remember tools/nosource "No source given."', 'write `remember owner/repo "what to remember" <source URL>`: the statement in quotes, then the URL that supports it.'],
    ['remember tools/nosource no quotes https://x.test/', 'write `remember owner/repo "what to remember" <source URL>`: the statement in quotes, then the URL that supports it.'],
    ['remember tools "x" https://x.test/', '`tools` is not `owner/repo`.'],
    ['knowledge', 'name one repository: `knowledge owner/repo`.'],
  ])('answers %j with the usage text and stores nothing', async (text, problem) => {
    const { status, body } = await send(await command(text));
    expect(status).toBe(200);
    expect(body).toEqual({ response_type: 'ephemeral', text: `${problem}\n${USAGE}` });
    expect(await stored('tools/nosource')).toEqual([]);
  });

  it('refuses a source with credentials or without a scheme, naming the field, and stores nothing', async () => {
    const creds = await send(await command('remember tools/refused "A fact." https://user:secret@wiki.example.test/page'));
    expect(creds.body.text).toBe('Nothing was remembered: source.uri: must not hold credentials.');
    const long = await send(await command(`remember tools/refused "${'x'.repeat(4_001)}" https://wiki.example.test/`));
    expect(long.body.text).toBe('Nothing was remembered: statement: must be at most 4000 characters.');
    expect(await stored('tools/refused')).toEqual([]);
  });

  it('refuses a repository the team may not target, and a team without an allowlist', async () => {
    const { body } = await send(await command('remember evil/repo "Owned." https://x.test/'));
    expect(body.text).toBe("This workspace may not target `evil/repo`. Ask an administrator to add it to the workspace's allowed repositories.");
    const other = await send(await command('remember tools/x "Owned." https://x.test/', {}, { team_id: 'T9999' }));
    expect(other.body.text).toContain('may not target `tools/x`');
    expect(await knowledge.list(scopeOf('tools/x', 'slack:T9999'), { status: 'all' }, null, 10)).toEqual({ items: [], next: null });
  });

  // The team may target tools/*: a name that is no repository must not pass as one under it.
  it.each(['tools/..', 'tools/.', 'TOOLS/..', 'tools/x.git', 'tools/x.wiki', 'tools/a/b'])('refuses %j in every subcommand with one name check, and stores and starts nothing', async (name) => {
    const subcommands = [`remember ${name} "Owned." https://x.test/`, `knowledge ${name}`, `${name} explain the build`];
    for (const text of subcommands) {
      const { status, body, tasks } = await send(await command(text));
      expect(status, text).toBe(200);
      expect(body.text, text).toMatch(new RegExp(`^\`${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\`(:| is not)`));
      expect(body.text, text).not.toContain('Nothing about');
      expect(tasks.calls, text).toEqual([]);
    }
    expect(await knowledge.list({ tenant: TEAM, repository: `github:${new URL(WEB).host}/${name.toLowerCase()}` }, { status: 'all' }, null, 10)).toEqual({ items: [], next: null });
  });

  it('checks the signature before anything is stored', async () => {
    const { status } = await send(await command('remember tools/unsigned "Forged." https://x.test/', { secret: 'another-secret' }));
    expect(status).toBe(401);
    expect(await stored('tools/unsigned')).toEqual([]);
  });
});

describe('/groundwork knowledge', () => {
  it('lists what is due for review within two weeks, soonest first, with escaped previews', async () => {
    const draft = (statement: string, reviewBy: string) => ({ kind: 'fact' as const, statement, source: { uri: 'https://x.test/' }, author: 'test', reviewBy });
    const later = await knowledge.create(scopeOf('tools/due'), draft('Not yet due.', '2027-01-30'));
    const soon = await knowledge.create(scopeOf('tools/due'), draft(`Use <script> & friends ${'carefully '.repeat(20)}`, '2026-12-01'));
    const first = await knowledge.create(scopeOf('tools/due'), draft('Due first.', '2026-11-21'));
    if (later.status !== 'ok' || soon.status !== 'ok' || first.status !== 'ok') throw new Error('not created');
    const { body } = await send(await command('knowledge tools/due'));
    expect(body.text).toBe(
      [
        '*Due for review* in `tools/due` by 2026-12-04:',
        `• \`${first.knowledge.id}\` review by 2026-11-21 (fact): Due first.`,
        `• \`${soon.knowledge.id}\` review by 2026-12-01 (fact): Use &lt;script&gt; &amp; friends carefully carefully carefully carefully carefully carefully carefully carefu…`,
        'Refresh one with `PATCH /knowledge/<id>` (a new review date), or retire it with `POST /knowledge/<id>/retire`.',
      ].join('\n'),
    );
  });

  it('says when nothing is due', async () => {
    const { body } = await send(await command('knowledge tools/quiet'));
    expect(body.text).toBe('Nothing about `tools/quiet` is due for review by 2026-12-04.');
  });
});

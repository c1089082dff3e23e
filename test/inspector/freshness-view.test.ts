import { describe, expect, it } from 'vitest';
import { freshnessModel } from '../../src/inspector/freshness.ts';
import { repositoryLinks } from '../../src/inspector/links.ts';
import { FreshnessSection } from '../../src/views/freshness-section.tsx';
import { api } from '../support/api.ts';
import { gitBlobOid } from '../support/memory-tree.ts';
import { createTestRemote } from '../support/git-remote.ts';
import { openPage, readyTask, textOf } from './support.ts';

const FILES = {
  'AGENTS.md': '# Rules\n\nRun the tests.\n',
  'services/auth/AGENTS.md': '# Auth\n\nNever log tokens.\n',
  '.agents/skills/tdd/SKILL.md': '---\nname: tdd\ndescription: Write the failing test first.\n---\nRed, green, refactor.\n',
};

/** The verdict column of each source row, in page order, with the row's source cell text. */
function rows(html: string): Array<[string, string]> {
  return [...html.matchAll(/<tr data-status="([a-z]+)">((?:(?!<\/tr>).)*)<\/tr>/g)].map((m) => [m[1] ?? '', textOf((m[2] ?? '').split('</td>')[2] ?? '')]);
}

describe('the inspector’s freshness read-back', () => {
  it('is a link on load; asked for, it lists what changed first, through the same signed link', async () => {
    const remote = await createTestRemote(FILES);
    const { id, viewUrl } = await readyTask({ repo: remote.url, ref: 'main', cwd: 'services/auth', request: 'Fix the login bug. Use $tdd.' });
    const changed = '# Rules\n\nRun the tests, then the linter.\n';
    const head = await remote.push({ 'AGENTS.md': changed });

    // A plain load does not read the repository: it offers the check instead.
    const plain = await openPage(viewUrl);
    expect(plain.status).toBe(200);
    const href = /<a href="(\?[^"]*freshness=1)">Check what changed since the pinned commit<\/a>/.exec(plain.html)?.[1]?.replace(/&amp;/g, '&');
    expect(href).toBeDefined();
    expect(rows(plain.html)).toEqual([]);
    expect(textOf(plain.html)).not.toContain(head);

    const link = new URL(viewUrl);
    const checkedUrl = new URL(href ?? '', link);
    expect(checkedUrl.searchParams.get('sig')).toBe(link.searchParams.get('sig'));
    const checked = await openPage(checkedUrl.href);
    expect(checked.status).toBe(200);
    const text = textOf(checked.html);
    expect(text).toMatch(/Ref\s*main moved/);
    expect(text).toContain(head);
    expect(text).toContain('1 changed · 0 deleted · 0 unverifiable · 3 unchanged');
    expect(rows(checked.html)).toEqual([
      ['changed', 'AGENTS.md'],
      ['unchanged', 'services/auth/AGENTS.md'],
      ['unchanged', '.agents/skills (Skills index)'],
      ['unchanged', '.agents/skills/tdd/SKILL.md (Selected skill: tdd)'],
    ]);
    expect(checked.html).toContain(`<code>${(await gitBlobOid(changed)).slice(0, 12)}</code>`);

    // The check reads, never writes: the task still has one turn and the API agrees with the page.
    const readBack = await api('GET', `/tasks/${id}/freshness`);
    expect(readBack.json).toMatchObject({ current: head, moved: true });
    expect((await api('GET', `/tasks/${id}`)).json['turns']).toHaveLength(1);
  });

  it('answers a value other than 1 with a 400 page naming the parameter', async () => {
    const { viewUrl } = await readyTask();
    const page = await openPage(`${viewUrl}&freshness=yes`);
    expect(page.status).toBe(400);
    expect(textOf(page.html)).toContain('freshness: use freshness=1');
  });

  it('shows the mailbox in the header and when each follow-up arrived in the timeline', async () => {
    const { id, viewUrl } = await readyTask();
    expect(textOf((await openPage(viewUrl)).html)).toMatch(/Mailbox\s*no follow-ups/);
    const posted = await api('POST', `/tasks/${id}/mailbox`, { body: { from: 'reviewer', text: 'Also cover the <script> case.' } });
    expect(posted.status).toBe(201);
    const receivedAt = String((posted.json['item'] as { receivedAt: string }).receivedAt);
    const page = await openPage(viewUrl);
    const text = textOf(page.html);
    expect(text).toMatch(/Mailbox\s*1 follow-up, the last local:mailbox:1 at/);
    expect(text).toContain(`from reviewer · received ${receivedAt}`);
    expect(page.html).not.toContain('<script>');
  });
});

describe('the freshness section (pure)', () => {
  const links = repositoryLinks('acme/widgets', 'https://api.github.com');
  const sha = (c: string) => c.repeat(40);

  it('escapes what the repository named and says why a source could not be checked', async () => {
    const model = freshnessModel(
      {
        status: 'checked',
        report: {
          commit: sha('a'),
          ref: 'main',
          current: null,
          moved: null,
          checkedAt: '2026-11-30T12:00:00.000Z',
          reason: 'could not resolve main: <b>boom</b>',
          sources: [
            { provider: 'rules', kind: 'file', title: 'ok.md', path: 'ok.md', revision: sha('a'), blob: sha('b'), status: 'unchanged' },
            { provider: 'rules', kind: 'file', title: '<script>x</script>.md', path: '<script>x</script>.md', revision: sha('a'), blob: sha('c'), status: 'unverifiable', reason: 'timed out' },
          ],
        },
      },
      links,
    );
    expect(model.status === 'checked' && model.rows.map((row) => row.status)).toEqual(['unverifiable', 'unchanged']);
    const html = String(await FreshnessSection({ freshness: model, checkHref: '?freshness=1' }));
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<b>');
    expect(textOf(html)).toContain('could not be resolved');
    expect(textOf(html)).toContain('timed out');
    expect(html).toContain(`href="https://github.com/acme/widgets/blob/${sha('a')}/ok.md"`);
  });

  it('says there is nothing to compare when the task has no commit yet', async () => {
    const html = String(await FreshnessSection({ freshness: { status: 'unavailable', reason: 'the task has not pinned a commit yet (it is pending)' }, checkHref: '?freshness=1' }));
    expect(textOf(html)).toContain('Nothing to compare yet: the task has not pinned a commit yet (it is pending)');
  });
});

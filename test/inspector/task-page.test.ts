import { inject, describe, expect, it } from 'vitest';
import { api } from '../support/api.ts';
import { openPage, readyTask, textOf } from './support.ts';

const sample = () => inject('gitHttpFixtures').sample;

describe('GET /tasks/:id/view', () => {
  it('shows the header, every provider with its outcome, and each section with its source at the pinned commit', async () => {
    const { id, viewUrl } = await readyTask({ skills: ['review'] });
    const page = await openPage(viewUrl);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const text = textOf(page.html);
    expect(text).toContain(id);
    expect(text).toContain(sample().head);
    expect(page.html).toMatch(/<tr data-provider="rules">(?:(?!<\/tr>).)*badge o-included/);
    // sample.git's only skill has no description: the skills provider says so in its reason.
    expect(page.html).toMatch(/<tr data-provider="skills">(?:(?!<\/tr>).)*badge o-empty(?:(?!<\/tr>).)*no such skill in the index/);
    expect(text).toContain(`AGENTS.md@${sample().head}`);
    expect(page.html).toMatch(/<details class="section" id="t0-s\d+">/);
    expect(text).toContain('Run `npm test` before committing.');
    expect(text).toMatch(/Digest\s*sha256:[0-9a-f]{64}/);
    expect(page.html).toContain('id="timeline"');
    expect(text).toContain('local:task');
  });

  it('names the task\'s client in the header and shows every rule file by client, each cell with why', async () => {
    const { viewUrl } = await readyTask({ client: 'codex@0.153.4' });
    const page = await openPage(viewUrl);
    const text = textOf(page.html);
    expect(text).toMatch(/Client\s*codex@0\.153\.4 \(rules it loads itself are not repeated\)/);
    const matrix = page.html.slice(page.html.indexOf('id="rule-matrix-0"'));
    expect(matrix).toContain('Rule files by client');
    expect(textOf(matrix)).toContain("this task's client is codex@0.153.4");
    expect(matrix).toMatch(/<th scope="row">(?:(?!<\/tr>).)*AGENTS\.md(?:(?!<\/tr>).)*data-cell="given"(?:(?!<\/tr>).)*data-cell="loaded"/s);
    const plain = await openPage((await readyTask()).viewUrl);
    expect(textOf(plain.html)).toMatch(/Client\s*none \(a host that loads no rule file itself: every rule is given\)/);
  });

  it('is sent with a strict CSP whose nonce is the stylesheet’s, no scripts, no referrer and no caching', async () => {
    const { viewUrl } = await readyTask();
    const page = await openPage(viewUrl);
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/default-src 'none'/);
    const nonce = /style-src 'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    expect(page.html).toContain(`<style nonce="${nonce}">`);
    expect(page.html).not.toMatch(/<script/i);
    expect(page.html).not.toMatch(/\sstyle="/);
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('x-frame-options')).toBe('DENY');
  });

  it('opens with the API token of the owner, and is a 404 page for another tenant', async () => {
    const { id } = await readyTask();
    const owner = await openPage(`/tasks/${id}/view`, { tenant: 'acme' });
    expect(owner.status).toBe(200);
    expect(textOf(owner.html)).toContain(id);
    const other = await openPage(`/tasks/${id}/view`, { tenant: 'globex' });
    expect(other.status).toBe(404);
    expect(other.html).not.toContain('Explain the build.');
  });

  it('asks for a link or a token when given neither, and refuses a wrong token', async () => {
    const { id } = await readyTask();
    const none = await openPage(`/tasks/${id}/view`);
    expect(none.status).toBe(401);
    expect(textOf(none.html)).toContain('signed link');
    const wrong = await openPage(`/tasks/${id}/view`, { token: 'not-a-token-of-anyone-at-all' });
    expect(wrong.status).toBe(401);
    expect(wrong.html).not.toContain('Explain the build.');
  });

  it('answers GET /tasks/:id with a signed viewUrl that opens the page', async () => {
    const { id } = await readyTask();
    const described = await api('GET', `/tasks/${id}`);
    const viewUrl = String(described.json['viewUrl']);
    expect(viewUrl).toMatch(new RegExp(`^http://groundwork\\.test/tasks/${id}/view\\?exp=\\d+&sig=[0-9a-f]{64}$`));
    expect((await openPage(viewUrl)).status).toBe(200);
  });
});

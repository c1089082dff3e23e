import { describe, expect, it } from 'vitest';
import { checkViewLink, linkExpiry, signedViewUrl } from '../../src/tasks/view-link.ts';
import { E2E_PREVIOUS_VIEW_LINK_SECRET, E2E_VIEW_LINK_SECRET } from '../e2e/bindings.ts';
import { openPage, readyTask, textOf } from './support.ts';

const TASK = 'a'.repeat(64);
const OTHER = 'b'.repeat(64);
const NOW = Date.parse('2026-11-20T12:00:00Z');
const LATER = Math.floor(NOW / 1000) + 3600;
const secrets = { current: 'current-secret', previous: 'previous-secret' };

/** `exp` and `sig` of a signed link. */
async function parts(secret: string, taskId = TASK, exp = LATER): Promise<{ exp: string; sig: string }> {
  const url = new URL(await signedViewUrl('https://groundwork.example', taskId, secret, exp));
  return { exp: url.searchParams.get('exp') ?? '', sig: url.searchParams.get('sig') ?? '' };
}

describe('view link signatures', () => {
  it('accepts a link signed with the current secret until it expires', async () => {
    const { exp, sig } = await parts('current-secret');
    expect(await checkViewLink(secrets, TASK, exp, sig, NOW)).toEqual({ ok: true, expiresAt: new Date(LATER * 1000) });
    expect(await checkViewLink(secrets, TASK, exp, sig, LATER * 1000)).toEqual({ ok: false, reason: 'expired', expiredAt: new Date(LATER * 1000) });
  });

  it('accepts a link signed with the secret being rotated out, and refuses one signed with any other', async () => {
    const previous = await parts('previous-secret');
    expect((await checkViewLink(secrets, TASK, previous.exp, previous.sig, NOW)).ok).toBe(true);
    const retired = await parts('retired-secret');
    expect(await checkViewLink(secrets, TASK, retired.exp, retired.sig, NOW)).toEqual({ ok: false, reason: 'bad-signature' });
    // Once the rotation is over, the old secret's links stop opening.
    expect(await checkViewLink({ current: 'current-secret' }, TASK, previous.exp, previous.sig, NOW)).toEqual({ ok: false, reason: 'bad-signature' });
  });

  it('refuses a changed expiry, a changed signature, and a link made for another task', async () => {
    const { exp, sig } = await parts('current-secret');
    const flipped = `${sig.slice(0, -1)}${sig.endsWith('0') ? '1' : '0'}`;
    for (const [taskId, e, s] of [
      [TASK, String(LATER + 86_400), sig],
      [TASK, exp, flipped],
      [OTHER, exp, sig],
    ] as const) {
      expect(await checkViewLink(secrets, taskId, e, s, NOW)).toEqual({ ok: false, reason: 'bad-signature' });
    }
  });

  it('refuses malformed expiries and signatures as bad signatures, never as expired', async () => {
    const { sig } = await parts('current-secret');
    for (const exp of ['', '0', '01', '1e9', ' 1', '-1', String(LATER).padEnd(14, '0'), '１２３']) {
      expect(await checkViewLink(secrets, TASK, exp, sig, NOW)).toEqual({ ok: false, reason: 'bad-signature' });
    }
    for (const bad of ['', sig.toUpperCase(), sig.slice(2), `${sig}00`, 'z'.repeat(64)]) {
      const { exp } = await parts('current-secret');
      expect(await checkViewLink(secrets, TASK, exp, bad, NOW)).toEqual({ ok: false, reason: 'bad-signature' });
    }
  });

  it('says links are not configured when no secret is set', async () => {
    const { exp, sig } = await parts('current-secret');
    expect(await checkViewLink({ current: '', previous: undefined }, TASK, exp, sig, NOW)).toEqual({ ok: false, reason: 'not-configured' });
  });

  it('makes links that expire with the task, or sooner with a TTL, and never in the past', () => {
    const taskExpires = NOW + 30 * 86_400_000;
    expect(linkExpiry(NOW, taskExpires)).toBe(taskExpires / 1000);
    expect(linkExpiry(NOW, taskExpires, 24)).toBe((NOW + 86_400_000) / 1000);
    expect(linkExpiry(NOW, NOW - 5_000)).toBe(NOW / 1000 + 1);
  });
});

describe('the page behind a view link', () => {
  it('opens with a link signed with the previous secret during a rotation', async () => {
    const { id } = await readyTask();
    const page = await openPage(await signedViewUrl('http://groundwork.test', id, E2E_PREVIOUS_VIEW_LINK_SECRET, Math.floor(Date.now() / 1000) + 600));
    expect(page.status).toBe(200);
    expect(textOf(page.html)).toContain('Explain the build.');
  });

  it('answers an expired link with a 403 page that says it expired and shows none of the task', async () => {
    const { id } = await readyTask({ request: 'Secret plan: rename the build.' });
    const exp = Math.floor(Date.now() / 1000) - 60;
    const page = await openPage(await signedViewUrl('http://groundwork.test', id, E2E_VIEW_LINK_SECRET, exp));
    expect(page.status).toBe(403);
    const text = textOf(page.html);
    expect(text).toContain('This link has expired');
    expect(text).toContain(new Date(exp * 1000).toISOString());
    expect(text).not.toContain('Secret plan');
    expect(text).not.toContain('sample.git');
  });

  it('answers a tampered, foreign or retired-secret link with a 403 page that says the signature is wrong', async () => {
    const { id, viewUrl } = await readyTask({ request: 'Secret plan: rename the build.' });
    const other = await readyTask({ request: 'Another task.' });
    const url = new URL(viewUrl);
    const exp = Number(url.searchParams.get('exp'));
    const links = [
      viewUrl.replace(/exp=\d+/, `exp=${exp + 1}`),
      viewUrl.replace(/sig=([0-9a-f])/, (_, c: string) => `sig=${c === '0' ? '1' : '0'}`),
      viewUrl.replace(id, other.id),
      await signedViewUrl('http://groundwork.test', id, 'a-secret-this-deployment-never-had', exp),
      `http://groundwork.test/tasks/${id}/view?exp=${exp}`,
    ];
    for (const link of links) {
      const page = await openPage(link);
      expect(page.status, link).toBe(403);
      const text = textOf(page.html);
      expect(text).toContain('This link is not valid');
      expect(text).not.toContain('Secret plan');
      expect(text).not.toContain('Another task');
    }
  });
});

/**
 * @module tasks/view-link
 * Signed, expiring links to a task's inspector page, for people with a browser and no API token
 * (a reviewer following a check run, a Slack reply). The signature is HMAC-SHA256 over the task
 * id and the expiry with `VIEW_LINK_SECRET`; `VIEW_LINK_SECRET_PREVIOUS` still verifies while a
 * secret is rotated out, as the webhook secret does. Web Crypto compares in constant time.
 *
 * A link says nothing about who holds it: whoever has it may read that one task until it
 * expires, so links last no longer than their task and never open another task.
 */
import { hmacSha256Hex, verifyHmacSha256Hex } from '../lib/hmac.ts';

export interface ViewLinkSecrets {
  current?: string | undefined;
  previous?: string | undefined;
}

/** Why a link does not open its page. The signature is checked first, so only a genuine link can say it expired. */
export type ViewLinkCheck = { ok: true; expiresAt: Date } | { ok: false; reason: 'not-configured' | 'bad-signature' } | { ok: false; reason: 'expired'; expiredAt: Date };

const EXPIRY = /^[1-9][0-9]{0,11}$/;
const SIGNATURE = /^[0-9a-f]{64}$/;

const TASK_PURPOSE = 'groundwork-view-link:v1';

/** What is signed: a versioned purpose, the subject (a task id, a tenant) and the expiry, so a signature made for anything else never verifies. */
function signedText(purpose: string, subject: string, exp: string): string {
  return `${purpose}\n${subject}\n${exp}`;
}

/** The hex signature of a link for `subject` that expires at `exp` (seconds since the epoch). */
export function signLink(secret: string, purpose: string, subject: string, exp: number): Promise<string> {
  return hmacSha256Hex(secret, signedText(purpose, subject, String(exp)));
}

/** Checks `exp` and `sig` of a link for `subject` against the current secret, then the previous one. */
export async function checkLink(secrets: ViewLinkSecrets, purpose: string, subject: string, exp: string, sig: string, nowMs: number): Promise<ViewLinkCheck> {
  const keys = [secrets.current, secrets.previous].filter((secret): secret is string => secret !== undefined && secret !== '');
  if (keys.length === 0) return { ok: false, reason: 'not-configured' };
  if (!EXPIRY.test(exp) || !SIGNATURE.test(sig)) return { ok: false, reason: 'bad-signature' };
  const text = signedText(purpose, subject, exp);
  const verified = await Promise.all(keys.map((key) => verifyHmacSha256Hex(key, text, sig)));
  if (!verified.includes(true)) return { ok: false, reason: 'bad-signature' };
  const expiresAt = new Date(Number(exp) * 1000);
  return expiresAt.getTime() <= nowMs ? { ok: false, reason: 'expired', expiredAt: expiresAt } : { ok: true, expiresAt };
}

/**
 * The expiry, in seconds since the epoch, of a link made now: when the task expires, or after
 * `ttlHours` if that comes first.
 *
 * @example
 * linkExpiry(Date.parse('2026-11-20T00:00:00Z'), Date.parse('2026-12-20T00:00:00Z'), 24) // 1795219200 (a day later)
 */
export function linkExpiry(nowMs: number, taskExpiresAtMs: number, ttlHours?: number): number {
  const limit = ttlHours === undefined ? taskExpiresAtMs : Math.min(taskExpiresAtMs, nowMs + ttlHours * 3_600_000);
  return Math.max(Math.floor(limit / 1000), Math.floor(nowMs / 1000) + 1);
}

/**
 * `<origin>/tasks/<id>/view?exp=<seconds>&sig=<hex>`
 *
 * @example
 * await signedViewUrl('https://groundwork.example.com', id, 'secret', 1795219200)
 */
export async function signedViewUrl(origin: string, taskId: string, secret: string, exp: number): Promise<string> {
  return `${origin}/tasks/${taskId}/view?exp=${exp}&sig=${await signLink(secret, TASK_PURPOSE, taskId, exp)}`;
}

/** Checks `exp` and `sig` of a link to `taskId` against the current secret, then the previous one. */
export function checkViewLink(secrets: ViewLinkSecrets, taskId: string, exp: string, sig: string, nowMs: number): Promise<ViewLinkCheck> {
  return checkLink(secrets, TASK_PURPOSE, taskId, exp, sig, nowMs);
}

export interface ViewLinkSettings {
  secret?: string | undefined;
  ttlHours?: number | undefined;
}

/**
 * A signed link to a task's page that expires with the task (or after the TTL), or null when
 * this deployment signs no links (no `VIEW_LINK_SECRET`) or knows no origin to link to.
 */
export async function taskViewUrl(settings: ViewLinkSettings, origin: string | undefined, taskId: string, taskExpiresAtMs: number, nowMs: number): Promise<string | null> {
  if (!settings.secret || !origin) return null;
  return signedViewUrl(origin, taskId, settings.secret, linkExpiry(nowMs, taskExpiresAtMs, settings.ttlHours));
}

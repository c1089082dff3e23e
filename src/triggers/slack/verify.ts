/**
 * @module triggers/slack/verify
 * Slack request signing: `X-Slack-Signature: v0=<hex>` is HMAC-SHA256 of
 * `v0:{X-Slack-Request-Timestamp}:{raw body}`. The timestamp bounds replay: a request signed
 * more than five minutes ago, or in the future beyond a small clock skew, is refused even when
 * its signature is right.
 */
import { hmacSha256Hex, toBytes, verifyHmacSha256Hex } from '../../lib/hmac.ts';
import type { Bytes } from '../../lib/hmac.ts';

export const MAX_AGE_SECONDS = 5 * 60;
/** Slack sends whole seconds; allow its clock and ours to disagree this much. */
export const FUTURE_SKEW_SECONDS = 30;

export type SlackVerification = { ok: true } | { ok: false; reason: string };

export interface SlackRequest {
  secret: string;
  timestamp: string | null | undefined;
  signature: string | null | undefined;
  body: Bytes | string;
  nowMs: number;
}

function basestring(timestamp: string, body: Bytes | string): Bytes {
  const prefix = toBytes(`v0:${timestamp}:`);
  const rest = toBytes(body);
  const joined = new Uint8Array(prefix.byteLength + rest.byteLength);
  joined.set(prefix);
  joined.set(rest, prefix.byteLength);
  return joined;
}

/**
 * @example
 * await verifySlackRequest({ secret, timestamp: '1700000000', signature: 'v0=…', body, nowMs: Date.now() })
 * // { ok: false, reason: 'request timestamp is more than 5 minutes old' }
 */
export async function verifySlackRequest(request: SlackRequest): Promise<SlackVerification> {
  const { timestamp, signature } = request;
  if (!timestamp || !/^\d{1,12}$/.test(timestamp)) return { ok: false, reason: 'X-Slack-Request-Timestamp is missing or not a number' };
  const age = Math.floor(request.nowMs / 1000) - Number(timestamp);
  if (age > MAX_AGE_SECONDS) return { ok: false, reason: 'request timestamp is more than 5 minutes old' };
  if (age < -FUTURE_SKEW_SECONDS) return { ok: false, reason: 'request timestamp is in the future' };
  const hex = /^v0=(.*)$/.exec(signature ?? '')?.[1];
  if (hex === undefined || !(await verifyHmacSha256Hex(request.secret, basestring(timestamp, request.body), hex))) {
    return { ok: false, reason: 'X-Slack-Signature does not match the request' };
  }
  return { ok: true };
}

/** The `X-Slack-Signature` value Slack would send; tests and the bench sign with it. */
export async function signSlackRequest(secret: string, timestamp: string, body: Bytes | string): Promise<string> {
  return `v0=${await hmacSha256Hex(secret, basestring(timestamp, body))}`;
}

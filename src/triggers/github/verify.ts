/**
 * @module triggers/github/verify
 * `X-Hub-Signature-256: sha256=<hex>` over the raw body, with secret rotation: a delivery signed
 * with the current or the previous secret verifies, so a secret can be changed in GitHub and in
 * the Worker without dropping deliveries in between.
 */
import { hmacSha256Hex, verifyHmacSha256Hex } from '../../lib/hmac.ts';
import type { Bytes } from '../../lib/hmac.ts';

const HEADER = /^sha256=(.*)$/;

/**
 * The header value GitHub would send for `body`; tests and the bench sign with it.
 *
 * @example
 * await signGitHubPayload('s3cret', '{"zen":"Keep it logically awesome."}') // 'sha256=...'
 */
export async function signGitHubPayload(secret: string, body: Bytes | string): Promise<string> {
  return `sha256=${await hmacSha256Hex(secret, body)}`;
}

/** A missing, truncated or wrongly prefixed header is `false`, never an exception. */
export async function verifyGitHubSignature(secret: string, body: Bytes | string, header: string | null | undefined): Promise<boolean> {
  const hex = HEADER.exec(header ?? '')?.[1];
  if (hex === undefined) return false;
  return verifyHmacSha256Hex(secret, body, hex);
}

export interface WebhookSecrets {
  current?: string | undefined;
  previous?: string | undefined;
}

export async function verifyWithRotation(secrets: WebhookSecrets, body: Bytes | string, header: string | null | undefined): Promise<boolean> {
  for (const secret of [secrets.current, secrets.previous]) {
    if (secret !== undefined && (await verifyGitHubSignature(secret, body, header))) return true;
  }
  return false;
}

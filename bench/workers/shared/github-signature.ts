/**
 * A webhook's `X-Hub-Signature-256` checked as GitHub documents it (HMAC-SHA256 of the body with
 * the webhook's secret, hex, `sha256=` first), with nothing of Groundwork's code: the floor
 * Workers' (webhook-floor, first-turn-floor) one shared step.
 */
const encoder = new TextEncoder();

export async function signatureMatches(secret: string, body: ArrayBuffer, header: string): Promise<boolean> {
  const hex = /^sha256=([0-9a-f]{64})$/.exec(header)?.[1];
  if (!hex) return false;
  const key = await crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
  const signature = new Uint8Array(hex.match(/../g)?.map((pair) => parseInt(pair, 16)) ?? []);
  return crypto.subtle.verify('HMAC', key, signature, body);
}

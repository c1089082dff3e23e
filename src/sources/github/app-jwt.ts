/**
 * @module sources/github/app-jwt
 * The GitHub App's own credential: a short-lived JWT signed RS256 with the app's private key,
 * using Web Crypto so it runs in workerd without Node's crypto module.
 */
import { base64ToBytes, bytesToBase64Url, textToBase64Url } from './base64.ts';

const PKCS8 = /-----BEGIN PRIVATE KEY-----([\s\S]+?)-----END PRIVATE KEY-----/;

/** GitHub downloads App keys as PKCS#1; Web Crypto only imports PKCS#8, so say how to convert. */
export const PKCS1_KEY_ERROR =
  'GitHub App private key is in PKCS#1 format (BEGIN RSA PRIVATE KEY), which Web Crypto cannot import. ' +
  'Convert it once to PKCS#8 with: openssl pkcs8 -topk8 -nocrypt -in key.pem -out key.pkcs8.pem';

/**
 * Imports a PKCS#8 PEM private key for RS256 signing. Throws an Error naming the fix when the
 * key is PKCS#1, encrypted, or not a PEM key at all.
 */
export async function importAppKey(pem: string): Promise<CryptoKey> {
  // Keys pasted into env vars or secrets often arrive with literal `\n` escapes.
  const text = pem.includes('\\n') ? pem.replace(/\\n/g, '\n') : pem;
  if (text.includes('-----BEGIN RSA PRIVATE KEY-----')) throw new Error(PKCS1_KEY_ERROR);
  if (text.includes('-----BEGIN ENCRYPTED PRIVATE KEY-----')) {
    throw new Error('GitHub App private key is encrypted; export it unencrypted with: openssl pkcs8 -topk8 -nocrypt -in key.pem -out key.pkcs8.pem');
  }
  const body = PKCS8.exec(text)?.[1];
  if (body === undefined) throw new Error('GitHub App private key is not a PEM key (expected -----BEGIN PRIVATE KEY-----)');
  try {
    return await crypto.subtle.importKey('pkcs8', base64ToBytes(body), { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, false, ['sign']);
  } catch (error) {
    throw new Error(`GitHub App private key could not be imported as an RSA PKCS#8 key: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * Signs an app JWT. `iat` is backdated a minute for clock drift and `exp` stays under GitHub's
 * ten-minute maximum.
 *
 * @example
 * const jwt = await signAppJwt({ appId: 123, key: await importAppKey(pem), nowSeconds: 1_700_000_000 });
 */
export async function signAppJwt(input: { appId: number | string; key: CryptoKey; nowSeconds: number }): Promise<string> {
  const header = textToBase64Url(JSON.stringify({ alg: 'RS256', typ: 'JWT' }));
  const payload = textToBase64Url(JSON.stringify({ iat: input.nowSeconds - 60, exp: input.nowSeconds + 540, iss: String(input.appId) }));
  const signingInput = `${header}.${payload}`;
  const signature = await crypto.subtle.sign('RSASSA-PKCS1-v1_5', input.key, new TextEncoder().encode(signingInput));
  return `${signingInput}.${bytesToBase64Url(new Uint8Array(signature))}`;
}

/**
 * @module sources/github/app-key
 * The GitHub App private key as an admin pastes it, turned into the PKCS#8 PEM that Web Crypto
 * (and so `universal-github-app-jwt` in workerd) imports. GitHub hands out PKCS#1
 * (`BEGIN RSA PRIVATE KEY`); PKCS#1 is the RSA key itself, and PKCS#8 is that same key inside a
 * small ASN.1 envelope naming the algorithm, so the conversion is a fixed prefix, not crypto.
 * Keys pasted into env vars often arrive with literal `\n`, on one line, or base64 encoded
 * whole; all of that is accepted. Anything else gets a message that says what to do.
 */
import { base64ToBytes, bytesToBase64 } from './base64.ts';

export type AppKeyResult = { ok: true; pkcs8: string; format: 'pkcs1' | 'pkcs8' } | { ok: false; error: string };

const PEM = /-----BEGIN ([A-Z0-9 ]+)-----([\s\S]*?)-----END \1-----/;

const WHAT_TO_PASTE =
  'set GITHUB_APP_PRIVATE_KEY to the whole .pem file GitHub downloads from the App settings (-----BEGIN RSA PRIVATE KEY-----) ' +
  'or to a PKCS#8 key (-----BEGIN PRIVATE KEY-----); newlines may be real or written \\n';

/** rsaEncryption (1.2.840.113549.1.1.1) with NULL parameters, the AlgorithmIdentifier of an RSA PKCS#8 key. */
const RSA_ALGORITHM = [0x30, 0x0d, 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01, 0x05, 0x00];

/**
 * @example
 * const key = normaliseAppKey(env.GITHUB_APP_PRIVATE_KEY);
 * if (key.ok) createAppAuth({ appId, privateKey: key.pkcs8, installationId });
 */
export function normaliseAppKey(input: string): AppKeyResult {
  const text = unwrapBase64(input.replace(/\\r/g, '').replace(/\\n/g, '\n'));
  const pem = PEM.exec(text);
  if (!pem) return { ok: false, error: `GitHub App private key is not a PEM private key: ${WHAT_TO_PASTE}` };
  const [, label = '', content = ''] = pem;
  if (label === 'ENCRYPTED PRIVATE KEY' || /Proc-Type:\s*4,ENCRYPTED/.test(content)) {
    return { ok: false, error: 'GitHub App private key is encrypted; export it without a passphrase: openssl pkcs8 -topk8 -nocrypt -in key.pem -out key.pkcs8.pem' };
  }
  if (label === 'OPENSSH PRIVATE KEY') {
    return { ok: false, error: `GitHub App private key is an OpenSSH key, not the App's key: ${WHAT_TO_PASTE}` };
  }
  if (label !== 'RSA PRIVATE KEY' && label !== 'PRIVATE KEY') {
    return { ok: false, error: `GitHub App private key is a PEM '${label}', not a private key: ${WHAT_TO_PASTE}` };
  }
  const base64 = content.replace(/\s+/g, '');
  if (base64 === '' || !/^[A-Za-z0-9+/]+={0,2}$/.test(base64)) {
    return { ok: false, error: `GitHub App private key's PEM body is not base64: ${WHAT_TO_PASTE}` };
  }
  if (label === 'PRIVATE KEY') return { ok: true, pkcs8: toPem(base64), format: 'pkcs8' };
  return { ok: true, pkcs8: toPem(bytesToBase64(wrapPkcs1(base64ToBytes(base64)))), format: 'pkcs1' };
}

/** Some secret stores hold the whole PEM file base64 encoded; decode it when that is what we got. */
function unwrapBase64(text: string): string {
  const compact = text.replace(/\s+/g, '');
  if (text.includes('-----BEGIN') || !/^[A-Za-z0-9+/]+={0,2}$/.test(compact)) return text;
  try {
    const decoded = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(base64ToBytes(compact));
    return decoded.includes('-----BEGIN') ? decoded : text;
  } catch {
    return text;
  }
}

/** PrivateKeyInfo ::= SEQUENCE { version 0, AlgorithmIdentifier, OCTET STRING <PKCS#1 RSAPrivateKey> } */
function wrapPkcs1(rsaPrivateKey: Uint8Array): Uint8Array {
  const octets = [0x04, ...derLength(rsaPrivateKey.length)];
  const bodyLength = 3 + RSA_ALGORITHM.length + octets.length + rsaPrivateKey.length;
  const head = [0x30, ...derLength(bodyLength), 0x02, 0x01, 0x00, ...RSA_ALGORITHM, ...octets];
  const out = new Uint8Array(head.length + rsaPrivateKey.length);
  out.set(head);
  out.set(rsaPrivateKey, head.length);
  return out;
}

function derLength(length: number): number[] {
  if (length < 0x80) return [length];
  const bytes: number[] = [];
  for (let rest = length; rest > 0; rest = Math.floor(rest / 256)) bytes.unshift(rest % 256);
  return [0x80 | bytes.length, ...bytes];
}

/** The exact layout universal-github-app-jwt reads: a BEGIN line, 64-column body, an END line. */
function toPem(base64: string): string {
  return `-----BEGIN PRIVATE KEY-----\n${base64.replace(/.{64}/g, '$&\n').replace(/\n$/, '')}\n-----END PRIVATE KEY-----`;
}

const imported = new Map<string, Promise<string | undefined>>();

/**
 * Imports the normalised key once per isolate as an RSA signing key, as the JWT library will.
 * Resolves to an error message (a PKCS#8 key of another algorithm, a corrupt body) or undefined.
 */
export function checkAppKey(pkcs8: string): Promise<string | undefined> {
  let check = imported.get(pkcs8);
  if (!check) {
    const der = base64ToBytes(pkcs8.replace(/-----[A-Z ]+-----/g, ''));
    check = crypto.subtle.importKey('pkcs8', der, { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, false, ['sign']).then(
      () => undefined,
      (error: unknown) => `GitHub App private key could not be imported as an RSA key (${error instanceof Error ? error.message : String(error)}): ${WHAT_TO_PASTE}`,
    );
    imported.set(pkcs8, check);
  }
  return check;
}

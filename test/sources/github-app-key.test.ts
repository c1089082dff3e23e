import { describe, expect, it } from 'vitest';
import { appInstallationAuth, createGitHubSource, normaliseAppKey } from '../../src/sources/github/index.ts';
import { createApiScope, githubFixture } from '../support/github-api-client.ts';

const fx = githubFixture();

/** Resolves `main` as the installation with `privateKey`; the server verifies the JWT with the App's public key. */
async function resolveWith(privateKey: string) {
  const scope = createApiScope();
  const auth = appInstallationAuth({ issuer: fx.appId, privateKey, installationId: fx.installationId, memory: new Map() });
  const source = createGitHubSource({ owner: fx.owner, repo: fx.repo, auth, baseUrl: scope.baseUrl, retry: { baseDelayMs: 5 } });
  return { result: await source.resolve('main'), requests: (await scope.stats()).count };
}

function pem(label: string, der: Uint8Array): string {
  return `-----BEGIN ${label}-----\n${btoa(String.fromCharCode(...der)).replace(/.{64}/g, '$&\n')}\n-----END ${label}-----\n`;
}

describe('GitHub App private keys as admins paste them', () => {
  const escaped = (key: string) => key.replace(/\n/g, '\\n');
  const accepted: Array<[string, () => string]> = [
    ['PKCS#1, as GitHub issues it', () => fx.keyPkcs1],
    ['PKCS#8', () => fx.keyPkcs8],
    ['PKCS#1 with \\n escapes on one line', () => escaped(fx.keyPkcs1)],
    ['PKCS#8 with \\n escapes on one line', () => escaped(fx.keyPkcs8)],
    ['PKCS#1 with CRLF line ends', () => fx.keyPkcs1.replace(/\n/g, '\r\n')],
    ['PKCS#1 on one line with spaces', () => fx.keyPkcs1.replace(/\n(?!-----END)/g, ' ')],
    ['the whole PEM file base64 encoded', () => btoa(fx.keyPkcs1)],
  ];
  it.each(accepted)('signs with a key given as %s', async (_, key) => {
    expect(await resolveWith(key())).toEqual({ result: { status: 'ok', commit: fx.commits.head }, requests: 2 });
  });

  it('turns PKCS#1 into exactly the PKCS#8 that openssl would write', () => {
    expect(normaliseAppKey(fx.keyPkcs1)).toEqual({ ok: true, format: 'pkcs1', pkcs8: fx.keyPkcs8.trim() });
    expect(normaliseAppKey(escaped(fx.keyPkcs8))).toEqual({ ok: true, format: 'pkcs8', pkcs8: fx.keyPkcs8.trim() });
  });

  const refused: Array<[string, () => Promise<string> | string, RegExp]> = [
    ['a token instead of a key', () => 'ghp_not_a_key', /not a PEM private key: set GITHUB_APP_PRIVATE_KEY to the whole \.pem file/],
    ['only the first line of the key', () => '-----BEGIN RSA PRIVATE KEY-----', /not a PEM private key: set GITHUB_APP_PRIVATE_KEY/],
    ['an encrypted key', () => pem('ENCRYPTED PRIVATE KEY', new Uint8Array(64).fill(7)), /encrypted; export it without a passphrase: openssl pkcs8 -topk8 -nocrypt/],
    ['a legacy encrypted PKCS#1 key', () => fx.keyPkcs1.replace('\n', '\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,00\n\n'), /encrypted/],
    ['an OpenSSH key', () => pem('OPENSSH PRIVATE KEY', new Uint8Array(64).fill(1)), /OpenSSH key, not the App's key/],
    ['a certificate', () => pem('CERTIFICATE', new Uint8Array(64).fill(1)), /PEM 'CERTIFICATE', not a private key/],
    ['a PKCS#1 key whose body was cut', () => fx.keyPkcs1.replace(/\n[A-Za-z0-9+/=]+\n-----END/, '\n-----END'), /could not be imported as an RSA key .*set GITHUB_APP_PRIVATE_KEY/],
    [
      'a PKCS#8 key of another algorithm',
      async () => {
        const pair = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify']);
        if (!('privateKey' in pair)) throw new Error('expected a key pair');
        const der = await crypto.subtle.exportKey('pkcs8', pair.privateKey);
        if (!(der instanceof ArrayBuffer)) throw new Error('expected DER bytes');
        return pem('PRIVATE KEY', new Uint8Array(der));
      },
      /could not be imported as an RSA key/,
    ],
  ];
  it.each(refused)('refuses %s before any request, saying what to do', async (_, key, reason) => {
    const { result, requests } = await resolveWith(await key());
    expect(result).toMatchObject({ status: 'failed', ref: 'main', reason: expect.stringMatching(reason) });
    expect(requests).toBe(0);
  });
});

/**
 * @module sources/git/remote-url
 * Splits a smart-HTTP git URL into a stable identity (safe to log, render and use in cache keys)
 * and the credentials, if any, that were embedded in it. Credentials never reach the identity,
 * an entry URI or an error reason.
 */

export interface RemoteUrl {
  /** `https://host/path` with no userinfo, query, fragment or trailing slash; host lowercased. */
  identity: string;
  /** Authorization header built from URL userinfo or explicit credentials, if any. */
  headers: Record<string, string>;
}

export type ParsedRemoteUrl = ({ ok: true } & RemoteUrl) | { ok: false; reason: string };

export interface BasicAuth {
  username: string;
  password: string;
}

export function parseRemoteUrl(input: string, auth?: BasicAuth): ParsedRemoteUrl {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    // The input may hold a password, so it is not echoed.
    return { ok: false, reason: 'remote git URL is not a valid URL' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return { ok: false, reason: `remote git URL must use http or https, not ${url.protocol.replace(/:$/, '')}` };
  }
  if (url.search !== '') return { ok: false, reason: 'remote git URL must not have a query string' };
  let embedded: BasicAuth | undefined;
  try {
    embedded = url.username === '' && url.password === '' ? undefined : { username: decodeURIComponent(url.username), password: decodeURIComponent(url.password) };
  } catch {
    // WHATWG URL keeps `%zz` in userinfo as written; it is a credential nobody could have meant.
    return { ok: false, reason: 'remote git URL has a malformed percent-escape in its user name or password' };
  }
  url.username = '';
  url.password = '';
  url.hash = '';
  url.pathname = url.pathname.replace(/\/+$/, '');
  const credentials = auth ?? embedded;
  return {
    ok: true,
    identity: url.toString().replace(/\/+$/, ''),
    headers: credentials ? { authorization: basicAuthorization(credentials) } : {},
  };
}

function basicAuthorization({ username, password }: BasicAuth): string {
  // btoa takes Latin-1 only; encode UTF-8 first so any credential survives.
  const bytes = new TextEncoder().encode(`${username}:${password}`);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return `Basic ${btoa(binary)}`;
}

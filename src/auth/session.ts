/**
 * @module auth/session
 * The inspector's sign-in: a session cookie naming a record in `OAUTH_KV` that holds the person
 * (auth/identity) and their GitHub user access token. The cookie carries 256 random bits and
 * nothing else (`__Host-` prefixed, HttpOnly, Secure, SameSite=Lax: sent on a link from a check run
 * or Slack, never on another site's form or fetch). KV holds the record under the SHA-256 of the
 * cookie, encrypted (AES-GCM) with a key derived from the cookie (HKDF), so reading KV alone
 * reveals no session and no token, as the OAuth provider keeps its grants. A session lasts
 * {@link SESSION_TTL_SECONDS}; GitHub's token inside it is renewed when it expires (the page asks
 * auth/session-person), and signing out deletes the record.
 */
import { toHex } from '../lib/sha256.ts';
import { PersonSchema, type Person } from './identity.ts';

export const SESSION_COOKIE = '__Host-groundwork-session';
/** A week: long enough to follow links all week, short enough that a lost laptop's cookie dies. */
export const SESSION_TTL_SECONDS = 7 * 86_400;
const KEY_PREFIX = 'groundwork-session:';
const encoder = new TextEncoder();

export interface Session {
  /** The cookie value. */
  id: string;
  person: Person;
  expiresAt: number;
}

/** Stores a new session for `person`; the caller sets its cookie. */
export async function createSession(kv: KVNamespace, person: Person, now: number): Promise<Session> {
  const id = toBase64Url(crypto.getRandomValues(new Uint8Array(32)));
  const session = { id, person, expiresAt: now + SESSION_TTL_SECONDS * 1000 };
  await saveSession(kv, session, now);
  return session;
}

/** Writes the session again (GitHub's token renewed), keeping its expiry. */
export async function saveSession(kv: KVNamespace, session: Session, now: number): Promise<void> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const plain = encoder.encode(JSON.stringify({ person: session.person, expiresAt: session.expiresAt }));
  const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, await keyOf(session.id), plain));
  const ttl = Math.max(60, Math.ceil((session.expiresAt - now) / 1000));
  await kv.put(await storageKey(session.id), JSON.stringify({ iv: toBase64Url(iv), sealed: toBase64Url(sealed) }), { expirationTtl: ttl });
}

/** The session a cookie value names, or undefined (none, expired, tampered with). */
export async function readSession(kv: KVNamespace, id: string, now: number): Promise<Session | undefined> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(id)) return undefined;
  const stored = await kv.get<{ iv?: unknown; sealed?: unknown }>(await storageKey(id), 'json');
  if (!stored || typeof stored.iv !== 'string' || typeof stored.sealed !== 'string') return undefined;
  let plain: ArrayBuffer;
  try {
    plain = await crypto.subtle.decrypt({ name: 'AES-GCM', iv: fromBase64Url(stored.iv) }, await keyOf(id), fromBase64Url(stored.sealed));
  } catch {
    return undefined;
  }
  const record = JSON.parse(new TextDecoder().decode(plain)) as { person?: unknown; expiresAt?: unknown };
  const person = PersonSchema.safeParse(record.person);
  if (!person.success || typeof record.expiresAt !== 'number' || record.expiresAt <= now) return undefined;
  return { id, person: person.data, expiresAt: record.expiresAt };
}

export async function deleteSession(kv: KVNamespace, id: string): Promise<void> {
  if (/^[A-Za-z0-9_-]{43}$/.test(id)) await kv.delete(await storageKey(id));
}

/** `Set-Cookie` for a session, or (without one) the header that clears it. */
export function sessionCookie(session: Session | undefined, now: number): string {
  if (!session) return `${SESSION_COOKIE}=; Path=/; Max-Age=0; HttpOnly; Secure; SameSite=Lax`;
  return `${SESSION_COOKIE}=${session.id}; Path=/; Max-Age=${Math.floor((session.expiresAt - now) / 1000)}; HttpOnly; Secure; SameSite=Lax`;
}

/** A cookie's value from a `Cookie` header. */
export function cookieValue(header: string | null | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const cut = part.indexOf('=');
    if (cut > 0 && part.slice(0, cut).trim() === name) return part.slice(cut + 1).trim();
  }
  return undefined;
}

async function storageKey(id: string): Promise<string> {
  return `${KEY_PREFIX}${toHex(new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(`key:${id}`))))}`;
}

async function keyOf(id: string): Promise<CryptoKey> {
  const material = await crypto.subtle.importKey('raw', fromBase64Url(id), 'HKDF', false, ['deriveKey']);
  return crypto.subtle.deriveKey({ name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(0), info: encoder.encode('groundwork-session:v1') }, material, { name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
}

export function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4));
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

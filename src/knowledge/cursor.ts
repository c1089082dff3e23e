/**
 * @module knowledge/cursor
 * List cursors: where a page ended, opaque to clients (base64url JSON) and bound to the status
 * filter it was made for, so a cursor from `due` (sorted by review date) is refused on `active`
 * (sorted by creation) instead of silently skipping rows.
 */
import * as z from 'zod';
import { lazySchema } from '../lib/lazy-schema.ts';
import { PageKeySchema, type PageKey } from './results.ts';

const CursorSchema = lazySchema(() => z.strictObject({ status: z.string(), after: PageKeySchema }));

export function encodeCursor(status: string, after: PageKey): string {
  const bytes = new TextEncoder().encode(JSON.stringify({ status, after }));
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export type DecodedCursor = { ok: true; after: PageKey } | { ok: false; reason: string };

export function decodeCursor(status: string, cursor: string): DecodedCursor {
  let parsed: z.infer<typeof CursorSchema>;
  try {
    const binary = atob(cursor.replace(/-/g, '+').replace(/_/g, '/'));
    parsed = CursorSchema.parse(JSON.parse(new TextDecoder().decode(Uint8Array.from(binary, (char) => char.charCodeAt(0)))));
  } catch {
    return { ok: false, reason: 'is not a cursor this list returned' };
  }
  if (parsed.status !== status) return { ok: false, reason: `was returned for status=${parsed.status}, not status=${status}` };
  return { ok: true, after: parsed.after };
}

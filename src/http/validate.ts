/**
 * @module http/validate
 * Request bodies through zod with our envelope: a bad body is a 400 that names the field, never
 * a raw ZodError or a 500.
 */
import type { Context } from 'hono';
import type { z } from 'zod';
import { fieldPath } from '../context/zod-issues.ts';
import { ApiError } from './errors.ts';
import { isMediaType } from './media-type.ts';
import { readBodyBytes } from './read-body.ts';

/** Bodies larger than this (in bytes, as sent) are refused before parsing. */
export const MAX_JSON_BYTES = 1024 * 1024;

/** `maxBytes`: a route whose bodies are small by nature refuses more than it needs. */
export async function readJsonBody<S extends z.ZodType>(c: Context, schema: S, maxBytes = MAX_JSON_BYTES): Promise<z.output<S>> {
  if (!isMediaType(c.req.header('content-type'), 'application/json')) throw new ApiError('unsupported_media_type', 'content-type must be application/json');
  const bytes = await readBodyBytes(c.req.raw, maxBytes);
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes));
  } catch {
    throw new ApiError('bad_request', 'body is not valid JSON');
  }
  return parseWith(schema, value);
}

/** Validates an already-parsed value; the message names the first bad field. */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown, root = ''): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = issue ? fieldPath(root, issue.path) : '(root)';
  throw new ApiError('bad_request', `${field}: ${issue?.message ?? 'invalid'}`);
}

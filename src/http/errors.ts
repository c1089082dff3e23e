/**
 * @module http/errors
 * The one error envelope, `{ error: { code, message, requestId } }`, with a closed set of codes.
 * Handlers throw `ApiError` for expected failures; anything else becomes a plain 500 whose
 * details go to the log only.
 */
import type { ContentfulStatusCode } from 'hono/utils/http-status';

export const ERROR_STATUS = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  internal: 500,
  upstream: 502,
  not_configured: 503,
} as const satisfies Record<string, ContentfulStatusCode>;
export type ErrorCode = keyof typeof ERROR_STATUS;

export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly code: ErrorCode;
  constructor(code: ErrorCode, message: string) {
    super(message);
    this.code = code;
  }
  get status(): ContentfulStatusCode {
    return ERROR_STATUS[this.code];
  }
}

export interface ErrorEnvelope {
  error: { code: ErrorCode; message: string; requestId: string };
}

export function envelope(code: ErrorCode, message: string, requestId: string): ErrorEnvelope {
  return { error: { code, message, requestId } };
}

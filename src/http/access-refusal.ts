/**
 * @module http/access-refusal
 * An access decision's refusal (auth/repository-access) as the API's error: a name no repository
 * has is a 400 naming `repo`, a repository GitHub cannot decide or says no to a 403, a sign-in
 * GitHub no longer accepts a 401, and an answer GitHub could not give a 502 that says so.
 */
import type { AccessRefusal } from '../auth/repository-access.ts';
import { ApiError, type ErrorCode } from './errors.ts';

const CODES: Record<AccessRefusal, ErrorCode> = {
  'bad-name': 'bad_request',
  'not-github': 'forbidden',
  denied: 'forbidden',
  'signed-out': 'unauthorized',
  unavailable: 'upstream',
};

export function accessError(refusal: { kind: AccessRefusal; message: string }): ApiError {
  return new ApiError(CODES[refusal.kind], refusal.message);
}

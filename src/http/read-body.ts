/**
 * @module http/read-body
 * Request bodies read against a byte cap. A declared `Content-Length` over the cap is refused
 * before a byte is read; a body without one (chunked) is counted as it streams and abandoned as
 * soon as it passes the cap. No route holds more than its cap in memory, and the cap is bytes on
 * the wire, not characters: a megabyte of `€` is three megabytes.
 */
import { concatBytes } from '../lib/bytes.ts';
import { ApiError } from './errors.ts';

/** Throws `ApiError('payload_too_large')` past the cap. */
export async function readBodyBytes(request: Request, maxBytes: number): Promise<Uint8Array<ArrayBuffer>> {
  const declared = Number(request.headers.get('content-length'));
  if (declared > maxBytes) throw tooLarge(maxBytes);
  const body = request.body;
  if (!body) return new Uint8Array(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  return concatBytes(chunks);
}

function tooLarge(maxBytes: number): ApiError {
  return new ApiError('payload_too_large', `body exceeds ${maxBytes} bytes`);
}

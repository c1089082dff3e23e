/**
 * @module sources/github/base64
 * Byte <-> base64 conversions on `atob`/`btoa`, which exist in workerd and Node alike.
 */

/** Decodes standard base64; GitHub wraps blob content at 60 columns, so whitespace is ignored. */
export function base64ToBytes(base64: string): Uint8Array<ArrayBuffer> {
  const binary = atob(base64.replace(/\s+/g, ''));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

export function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  // Chunked: spreading a large array into one call would overflow the argument stack.
  for (let offset = 0; offset < bytes.byteLength; offset += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(offset, offset + 0x8000));
  }
  return btoa(binary);
}

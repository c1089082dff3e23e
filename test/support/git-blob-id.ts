/**
 * The object id git gives a blob: SHA-1 over `blob <size>\0` and the bytes. Tests compute it from
 * the content they wrote, so a source reporting another object's id fails.
 */
export async function gitBlobId(content: string | Uint8Array): Promise<string> {
  const body = typeof content === 'string' ? new TextEncoder().encode(content) : content;
  const header = new TextEncoder().encode(`blob ${body.byteLength}\0`);
  const object = new Uint8Array(header.byteLength + body.byteLength);
  object.set(header);
  object.set(body, header.byteLength);
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-1', object));
  return [...digest].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

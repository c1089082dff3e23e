/**
 * @module http/media-type
 * Media types read as RFC 9110 defines them, never as substrings: `type "/" subtype` followed by
 * `;`-separated parameters, compared case-insensitively, so `application/jsonx`,
 * `application/json-patch+json` and `text/application/json` are not `application/json`.
 *
 * @example
 * isMediaType('Application/JSON; charset=utf-8', 'application/json') // true
 * isMediaType('application/jsonx', 'application/json')               // false
 * accepts('application/json, text/event-stream;q=0.9', 'text/event-stream') // true
 */

interface MediaRange {
  /** `type/subtype`, lower case. */
  essence: string;
  params: Map<string, string>;
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9a-z-]+$/;

/** One media type or range (`text/html;q=0.5`), or undefined when it is not one. */
function parseRange(text: string): MediaRange | undefined {
  const [head = '', ...rest] = text.split(';');
  const slash = head.indexOf('/');
  const type = head.slice(0, slash).trim().toLowerCase();
  const subtype = head.slice(slash + 1).trim().toLowerCase();
  if (slash < 0 || !TOKEN.test(type) || !TOKEN.test(subtype)) return undefined;
  const params = new Map<string, string>();
  for (const param of rest) {
    const eq = param.indexOf('=');
    if (eq < 0) continue;
    const name = param.slice(0, eq).trim().toLowerCase();
    const value = param.slice(eq + 1).trim().replace(/^"(.*)"$/, '$1').toLowerCase();
    if (TOKEN.test(name)) params.set(name, value);
  }
  return { essence: `${type}/${subtype}`, params };
}

/**
 * Whether a Content-Type header names `essence`. A `charset` other than UTF-8 is refused where the
 * type's body is JSON: RFC 8259 allows no other encoding.
 */
export function isMediaType(header: string | null | undefined, essence: string): boolean {
  const range = header ? parseRange(header) : undefined;
  if (!range || range.essence !== essence) return false;
  const charset = range.params.get('charset');
  return charset === undefined || !essence.endsWith('json') || charset === 'utf-8' || charset === 'utf8';
}

/** Whether an Accept header lists `essence` itself with a quality above zero (wildcards do not list it). */
export function accepts(header: string | null | undefined, essence: string): boolean {
  if (!header) return false;
  return header.split(',').some((item) => {
    const range = parseRange(item);
    if (!range || range.essence !== essence) return false;
    const q = range.params.get('q');
    return q === undefined || Number(q) > 0;
  });
}

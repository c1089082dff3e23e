/**
 * @module http/media-type
 * Media types read as RFC 9110 defines them, never as substrings: `type "/" subtype` followed by
 * `;`-separated parameters, compared case-insensitively, so `application/jsonx`,
 * `application/json-patch+json` and `text/application/json` are not `application/json`. The
 * parsing is jshttp's `content-type` (RFC 9110 fields, quoted strings, an `Accept` list item by
 * item), which the Worker carries anyway for @octokit/request.
 *
 * @example
 * isMediaType('Application/JSON; charset=utf-8', 'application/json') // true
 * isMediaType('application/jsonx', 'application/json')               // false
 * accepts('application/json, text/event-stream;q=0.9', 'text/event-stream') // true
 */
import { parse } from 'content-type';

/**
 * Whether a Content-Type header names `essence` (lower case). A `charset` other than UTF-8 is
 * refused where the type's body is JSON: RFC 8259 allows no other encoding.
 */
export function isMediaType(header: string | null | undefined, essence: string): boolean {
  if (!header) return false;
  const { type, parameters } = parse(header);
  const charset = parameters['charset']?.toLowerCase();
  return type === essence && (charset === undefined || !essence.endsWith('json') || charset === 'utf-8' || charset === 'utf8');
}

/** Whether an Accept header lists `essence` itself with a quality above zero (wildcards do not list it). */
export function accepts(header: string | null | undefined, essence: string): boolean {
  for (let start = 0; header && start < header.length; ) {
    const { type, parameters, index } = parse(header, { comma: true, start });
    const q = parameters['q'];
    if (type === essence && (q === undefined || Number(q) > 0)) return true;
    // Past the comma that ended this item (parse always moves on: an empty item ends at its comma).
    start = index + 1;
  }
  return false;
}

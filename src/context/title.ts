/**
 * @module context/title
 * Entry titles are short labels (at most {@link MAX_TITLE_CHARS} UTF-16 units, the schema's
 * limit). Providers derive them from repository text such as paths and names, which can be any
 * length, so they clip here rather than hand the runner an entry it must refuse. Cuts never
 * leave half a surrogate pair.
 */

export const MAX_TITLE_CHARS = 200;

const ELLIPSIS = '…';

/** Keeps the start: for names and phrases, whose beginning says what they are. */
export function clipTitle(text: string, max = MAX_TITLE_CHARS): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - ELLIPSIS.length);
  return (/[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut) + ELLIPSIS;
}

/** Keeps the end: for paths, whose file name and nearest directories say what they are. */
export function pathTitle(path: string): string {
  if (path.length <= MAX_TITLE_CHARS) return path;
  const cut = path.slice(path.length - (MAX_TITLE_CHARS - ELLIPSIS.length));
  return ELLIPSIS + (/^[\uDC00-\uDFFF]/.test(cut) ? cut.slice(1) : cut);
}

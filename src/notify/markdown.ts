/**
 * @module notify/markdown
 * Repository text in the Markdown of a check run: escaped so it can add no link, image, HTML,
 * table cell or autolink, and measured as GitHub measures it. Pure.
 *
 * GitHub documents the check run's `output.summary` as "Maximum length: 65535 characters"
 * (docs.github.com/en/rest/checks/runs#create-a-check-run; @octokit/openapi-types 29.0.1, generated
 * from github/rest-api-description), but refuses it by UTF-8 size: "summary exceeds a maximum
 * bytesize of 65535" (422, github/docs#35252). A UTF-8 byte count is never below the UTF-16 length,
 * so a summary bounded in bytes satisfies both readings.
 */

/** GitHub's bound on a check run's summary, in UTF-8 bytes (see the module header). */
export const MAX_SUMMARY_BYTES = 65_535;

const encoder = new TextEncoder();

export function utf8Bytes(text: string): number {
  return encoder.encode(text).length;
}

/** The longest start of `text` of at most `max` UTF-8 bytes, never splitting a character. */
export function cutToBytes(text: string, max: number): string {
  const bytes = encoder.encode(text);
  if (bytes.length <= max) return text;
  let cut = new TextDecoder().decode(bytes.subarray(0, Math.max(0, max)));
  // A character split at the cut decodes as U+FFFD, which is not in `text` at that place.
  while (cut !== '' && !text.startsWith(cut)) cut = cut.slice(0, -1);
  return cut;
}

/**
 * Inline Markdown with every character that could start markup escaped, on one line; a scheme's
 * `://` and a `www.` lose their autolink too (GFM's extended autolinks need them unescaped).
 */
export function escapeMarkdown(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .replace(/[\\`*_{}[\]()<>#!|~&]/g, '\\$&')
    .replace(/:\/\//g, '\\://')
    .replace(/\bwww\./gi, (www) => `${www.slice(0, 3)}\\.`);
}

/**
 * Repository text as a code span, which Markdown renders literally (no link, autolink, mention or
 * HTML). `inTable`: a `|` ends a table cell even inside a code span unless escaped (GFM tables).
 */
export function codeSpan(text: string, inTable = false): string {
  const flat = text.replace(/\s+/g, ' ');
  const body = inTable ? flat.replace(/\|/g, '\\|') : flat;
  const longest = Math.max(0, ...(body.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad = body.startsWith('`') || body.endsWith('`') || body.startsWith(' ') ? ' ' : '';
  return `${fence}${pad}${body}${pad}${fence}`;
}

/**
 * `label` linked to `uri` when it is an http(s) URL, else the label alone. The destination has no
 * white space, no `<>` and no parentheses (an unbalanced one ends a Markdown link early, and
 * `encodeURIComponent` leaves them as they are).
 */
export function markdownLink(label: string, uri: string | undefined): string {
  if (uri === undefined || !/^https?:\/\//.test(uri)) return label;
  const destination = uri.replace(/[\s<>]/g, encodeURIComponent).replace(/\(/g, '%28').replace(/\)/g, '%29');
  return `[${label}](${destination})`;
}

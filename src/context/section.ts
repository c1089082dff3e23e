/**
 * @module context/section
 * One labeled section of the user message: `<groundwork-X boundary="…" …>`, the escaped text,
 * `</groundwork-X boundary="…">`. The boundary is derived from the section's own text, so the
 * same inputs render the same bytes, and it is chosen so that the text does not contain it, not
 * even in a folded spelling (full-width digits, invisible characters between): a closing label
 * with the right boundary can only be the host's. Escaping (escape.ts) keeps look-alike labels
 * visibly inert on top of that.
 */
import { escapeAttribute, escapeSectionText } from './escape.ts';
import { foldText } from './fold.ts';

export type Attributes = ReadonlyArray<readonly [string, string | undefined]>;

/**
 * @example
 * renderSection('groundwork-notice', [['provider', 'rules']], 'not read')
 * // '<groundwork-notice boundary="…" provider="rules">\nnot read\n</groundwork-notice boundary="…">'
 */
export function renderSection(tag: string, attributes: Attributes, text: string): string {
  const body = escapeSectionText(text);
  const boundary = sectionBoundary(tag, body);
  return `<${tag} boundary="${boundary}"${renderAttributes(attributes)}>\n${body}\n</${tag} boundary="${boundary}">`;
}

/**
 * 16 hex digits from a hash of the tag and body that the folded body does not contain; should
 * the text hold it (chosen to), the next candidate hashes the last, and so on. Each refused
 * candidate must occur in the text, so a body of n characters refuses fewer than n.
 */
export function sectionBoundary(tag: string, body: string): string {
  const folded = foldText(body);
  let candidate = hash64(`${tag}\n${body}`);
  while (folded.includes(candidate)) candidate = hash64(`${candidate}\n${body}`);
  return candidate;
}

const imul = Math.imul;

/**
 * Two 32-bit FNV-1a lanes with different offsets: cheap, synchronous and deterministic. A
 * short-lived command runs this loop in V8's interpreter over every section's text, where each
 * `Math.imul` was a property read of a global and `text.length` another, per character: read once
 * (issue 56). The values are the same.
 */
function hash64(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0, length = text.length; i < length; i++) {
    const unit = text.charCodeAt(i);
    a = imul(a ^ unit, 0x01000193);
    b = imul(b ^ unit, 0x01000193) ^ (b >>> 15);
  }
  return (a >>> 0).toString(16).padStart(8, '0') + (b >>> 0).toString(16).padStart(8, '0');
}

function renderAttributes(pairs: Attributes): string {
  return pairs
    .filter((pair): pair is readonly [string, string] => pair[1] !== undefined)
    .map(([key, value]) => ` ${key}="${escapeAttribute(value)}"`)
    .join('');
}

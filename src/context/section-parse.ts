/**
 * @module context/section-parse
 * Reads a host-rendered message back into its labeled sections (see section.ts), so a person
 * can see which provider wrote which part of a prompt. Only the host's own labels are read: a
 * section ends at the closing label with its own boundary, which its text never contains, and
 * look-alike labels inside the text were escaped when it was rendered, so repository text can
 * neither end a section early nor add one. Anything that is not a run of sections (a message
 * stored before sections had boundaries) is refused whole rather than guessed at.
 */

export interface ParsedSection {
  /** `groundwork-task`, `groundwork-context`, `groundwork-notice`, … */
  tag: string;
  boundary: string;
  /** Attribute values unescaped, in label order. */
  attributes: ReadonlyArray<readonly [string, string]>;
  /** The text as the model read it (look-alike labels stay escaped). */
  text: string;
  /** Where the section starts (its opening label) and ends (after its closing label) in the content. */
  start: number;
  end: number;
}

const OPENING = /<(groundwork-[a-z]+) boundary="([0-9a-f]{16})"((?: [a-z][a-z-]*="[^"]*")*)>\n/y;
const ATTRIBUTE = / ([a-z][a-z-]*)="([^"]*)"/g;
const SEPARATOR = '\n\n';

/**
 * The sections of `content` in order, or undefined when it is not made of sections only.
 *
 * @example
 * parseSections(renderSection('groundwork-notice', [['provider', 'rules']], 'not read'))
 * // [{ tag: 'groundwork-notice', boundary: '…', attributes: [['provider', 'rules']], text: 'not read', start: 0, end: 122 }]
 */
export function parseSections(content: string): ParsedSection[] | undefined {
  const sections: ParsedSection[] = [];
  let at = 0;
  while (at < content.length) {
    OPENING.lastIndex = at;
    const label = OPENING.exec(content);
    if (!label?.[1] || !label[2]) return undefined;
    const [opening, tag, boundary, attributes = ''] = label;
    const start = at + opening.length;
    const closing = `\n</${tag} boundary="${boundary}">`;
    const end = content.indexOf(closing, start);
    if (end < 0) return undefined;
    sections.push({ tag, boundary, attributes: readAttributes(attributes), text: content.slice(start, end), start: at, end: end + closing.length });
    at = end + closing.length;
    if (content.startsWith(SEPARATOR, at)) at += SEPARATOR.length;
    else if (at !== content.length) return undefined;
  }
  return sections;
}

function readAttributes(text: string): Array<[string, string]> {
  return Array.from(text.matchAll(ATTRIBUTE), (match): [string, string] => [match[1] ?? '', unescapeAttribute(match[2] ?? '')]);
}

const NAMED: Readonly<Record<string, string>> = { amp: '&', quot: '"', lt: '<', gt: '>' };

/** The inverse of `escapeAttribute` (whose line breaks and tabs became spaces for good). */
export function unescapeAttribute(value: string): string {
  return value.replace(/&(amp|quot|lt|gt|#x([0-9A-F]{1,6}));/g, (whole, name: string, hex: string | undefined) => {
    if (hex !== undefined) {
      const code = Number.parseInt(hex, 16);
      return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED[name] ?? whole;
  });
}

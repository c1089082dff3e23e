/**
 * @module context/escape
 * Keeps repository text inside its section. Wrapper tags are `groundwork-*`; any `<` that would
 * open or close one (any case, any spacing) becomes `&lt;`, so an AGENTS.md cannot end its own
 * section and start a forged one. Other text, code included, is left as written.
 */

const WRAPPER_TAG_START = /<(?=\s*\/?\s*groundwork-)/gi;

export function escapeSectionText(text: string): string {
  return text.replace(WRAPPER_TAG_START, '&lt;');
}

/** Attribute values are host-built but may carry repository paths or titles. */
export function escapeAttribute(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/"/g, '&quot;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/[\r\n\t]/g, ' ');
}

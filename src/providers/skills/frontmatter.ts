/**
 * @module providers/skills/frontmatter
 * Splits a SKILL.md into its YAML frontmatter and body, and parses the frontmatter with the
 * `yaml` package. Failures are values with a reason a person can act on.
 */
import { parseDocument } from 'yaml';

export type SplitSkillFile =
  | { kind: 'none' }
  | { kind: 'unclosed' }
  | { kind: 'split'; yaml: string; body: string };

const OPENING = /^---[ \t]*\r?\n/;
const CLOSING = /^(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/m;

/** The frontmatter is a `---` first line up to the next `---` (or `...`) line. */
export function splitSkillFile(text: string): SplitSkillFile {
  const opening = OPENING.exec(text);
  if (!opening) return { kind: 'none' };
  const rest = text.slice(opening[0].length);
  const closing = CLOSING.exec(rest);
  if (!closing) return { kind: 'unclosed' };
  return { kind: 'split', yaml: rest.slice(0, closing.index), body: rest.slice(closing.index + closing[0].length) };
}

/** `data` is whatever the YAML held; its shape is checked by `validate.ts`. */
export type ParsedFrontmatter = { ok: true; data: unknown } | { ok: false; reason: string };

/** Anchors can multiply a small file into a huge value; real frontmatter needs few of them. */
const MAX_ALIASES = 50;

export function parseFrontmatter(yaml: string): ParsedFrontmatter {
  const doc = parseDocument(yaml, { uniqueKeys: true, prettyErrors: true });
  const [error] = doc.errors;
  if (error) {
    const message = error.message.split(' at line ')[0] ?? error.code;
    // +1 for the opening `---`, so the line is the file's own.
    const line = error.linePos?.[0]?.line;
    return { ok: false, reason: `frontmatter is not valid YAML: ${message}${line === undefined ? '' : ` (line ${line + 1})`}` };
  }
  try {
    return { ok: true, data: doc.toJS({ maxAliasCount: MAX_ALIASES }) as unknown };
  } catch (cause) {
    return { ok: false, reason: `frontmatter is not valid YAML: ${cause instanceof Error ? cause.message : String(cause)}` };
  }
}

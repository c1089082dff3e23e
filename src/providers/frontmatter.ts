/**
 * @module providers/frontmatter
 * Splits a Markdown file (a SKILL.md, a rule file) into its YAML frontmatter and body, and parses
 * the frontmatter with `lib/yaml-1.2`. Failures are values with a reason a person can act on.
 *
 * Read as YAML 1.2 whatever a `%YAML` directive says (see `lib/yaml-1.2`; `warnings` says so), and
 * scalars with YAML's failsafe schema, so every value is the text that was written:
 * `name: 2024` is the name "2024" and `version: 1.0` is "1.0", as the reference validator's
 * strictyaml reads them. The YAML features strictyaml refuses (flow collections, anchors and
 * aliases, explicit tags) are parsed anyway and reported, so a skill that other tools reject
 * still gets indexed here with a warning instead of vanishing.
 */
import { parseYaml12, type YamlConstruct } from '../lib/yaml-1.2.ts';

export type SplitFrontmatter =
  | { kind: 'none' }
  | { kind: 'unclosed' }
  | { kind: 'split'; yaml: string; body: string };

const OPENING = /^---[ \t]*\r?\n/;
const CLOSING = /^(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/m;

/** The frontmatter is a `---` first line up to the next `---` (or `...`) line. */
export function splitFrontmatter(text: string): SplitFrontmatter {
  const opening = OPENING.exec(text);
  if (!opening) return { kind: 'none' };
  const rest = text.slice(opening[0].length);
  const closing = CLOSING.exec(rest);
  if (!closing) return { kind: 'unclosed' };
  return { kind: 'split', yaml: rest.slice(0, closing.index), body: rest.slice(closing.index + closing[0].length) };
}

/**
 * `data` is whatever the YAML held (strings, arrays, plain objects, or null when empty); its
 * shape is checked by `validate.ts`. `strict` names each construct strictyaml would refuse;
 * `warnings`, what the text asked for and did not get (a `%YAML 1.1` directive).
 */
export type ParsedFrontmatter = { ok: true; data: unknown; strict: string[]; warnings: string[] } | { ok: false; reason: string };

/** Anchors can multiply a small file into a huge value; real frontmatter needs few of them. */
const MAX_ALIAS_NODES = 50;
/** Enough to show what to fix; a file full of flow style needs no hundred line numbers. */
const MAX_STRICT_REPORTS = 5;
const STRICT_NAMES: Record<YamlConstruct['kind'], string> = {
  alias: 'an alias',
  anchor: 'an anchor',
  tag: 'an explicit tag',
  flow: 'a flow collection ([...] or {...})',
};

export function parseFrontmatter(yaml: string): ParsedFrontmatter {
  const parsed = parseYaml12(yaml, { schema: 'failsafe', maxAliasNodes: MAX_ALIAS_NODES });
  // +1 for the opening `---`, so every line is the file's own.
  const at = (line: number | undefined) => (line === undefined ? '' : ` (line ${line + 1})`);
  if (!parsed.ok) return { ok: false, reason: `frontmatter is not valid YAML: ${parsed.message}${at(parsed.line)}` };
  const strict = parsed.constructs.slice(0, MAX_STRICT_REPORTS).map(({ kind, line }) => `${STRICT_NAMES[kind]}${at(line)}`);
  return { ok: true, data: parsed.data, strict, warnings: parsed.warnings };
}

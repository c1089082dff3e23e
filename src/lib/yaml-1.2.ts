/**
 * @module lib/yaml-1.2
 * The only way Groundwork reads YAML (`.groundwork.yml`, SKILL.md frontmatter, any format added
 * later): as YAML 1.2, whatever the text says. A `%YAML 1.1` directive would make `on`, `off`,
 * `yes` and `no` booleans and turn on `<<` merge keys, so repository text could mean something
 * other than what the documentation promises (`enabled: off` is the string "off", not false).
 * The directive is not followed; the caller gets a warning saying so, to show the author.
 *
 * Duplicate keys are errors. Aliases are left to the caller (`toJS({ maxAliasCount })`).
 *
 * @example
 * const { doc, warnings } = parseYaml12('%YAML 1.1\n---\nenabled: off\n');
 * doc.toJS() // { enabled: 'off' }
 * warnings   // ['its %YAML 1.1 directive was not followed: read as YAML 1.2, where on, off, yes and no are text']
 */
import { parseDocument, type Document, type LineCounter } from 'yaml';

export interface Yaml12Options {
  /** `core` (default): YAML 1.2's types. `failsafe`: every scalar is the text written. */
  schema?: 'core' | 'failsafe';
  lineCounter?: LineCounter;
}

export interface ParsedYaml12 {
  doc: Document.Parsed;
  /** What the text asked for and did not get (a `%YAML` directive for another version), one line each. */
  warnings: string[];
}

export function parseYaml12(text: string, options: Yaml12Options = {}): ParsedYaml12 {
  // An explicit schema is what wins over a directive's version in the `yaml` package (Document.setSchema).
  const doc = parseDocument(text, {
    version: '1.2',
    schema: options.schema ?? 'core',
    resolveKnownTags: true,
    merge: false,
    uniqueKeys: true,
    prettyErrors: true,
    ...(options.lineCounter ? { lineCounter: options.lineCounter } : {}),
  });
  const asked = doc.directives?.yaml;
  const warnings = asked?.explicit && asked.version !== '1.2' ? [`its %YAML ${asked.version} directive was not followed: read as YAML 1.2, where on, off, yes and no are text`] : [];
  for (const warning of doc.warnings) if (warning.code === 'BAD_DIRECTIVE') warnings.push(`${warning.message.split(' at line ')[0] ?? warning.code}: read as YAML 1.2`);
  return { doc, warnings };
}

/**
 * @module lib/yaml-1.2
 * The only way Groundwork reads YAML (`.groundwork.yml`, SKILL.md and rule frontmatter, any format
 * added later): as YAML 1.2, whatever the text says. A `%YAML 1.1` directive would make `on`,
 * `off`, `yes` and `no` booleans and turn on `<<` merge keys, so repository text could mean
 * something other than what the documentation promises (`enabled: off` is the string "off", not
 * false). The directive is not followed; the caller gets a warning saying so, to show the author.
 *
 * Built on js-yaml's event parser: the events say where every anchor, alias, explicit tag and flow
 * collection is (so callers can name what strict parsers refuse, with its line) and let the alias
 * expansion be counted before anything is built. Duplicate keys and a second document are errors.
 *
 * @example
 * parseYaml12('%YAML 1.1\n---\nenabled: off\n')
 * // { ok: true, data: { enabled: 'off' }, constructs: [], warnings: ['its %YAML 1.1 directive was not followed: …'] }
 */
import { COLLECTION_STYLE, constructFromEvents, CORE_SCHEMA, EVENT_ID, FAILSAFE_SCHEMA, parseEvents, YAMLException, type Event } from 'js-yaml';

export interface Yaml12Options {
  /** `core` (default): YAML 1.2's types. `failsafe`: every scalar is the text written. */
  schema?: 'core' | 'failsafe';
  /**
   * Nodes that aliases may add to the value, counting what each `*name` stands for (so a chain of
   * anchors that multiplies a small text into a huge value is refused before it is built). 0, the
   * default, refuses every alias.
   */
  maxAliasNodes?: number;
}

/** What YAML offers beyond plain block mappings, sequences and scalars; `line` is 1-based in the text. */
export interface YamlConstruct {
  kind: 'alias' | 'anchor' | 'tag' | 'flow';
  line: number;
}

export type ParsedYaml12 =
  /** `data` is null for a text with no document (empty, or only comments). */
  | { ok: true; data: unknown; constructs: YamlConstruct[]; warnings: string[] }
  /** `line` is 1-based in the text, when the parser knows it. */
  | { ok: false; message: string; line?: number; warnings: string[] };

/** Collections nested deeper than this are refused: real settings and frontmatter nest a few levels. */
const MAX_DEPTH = 64;

export function parseYaml12(text: string, options: Yaml12Options = {}): ParsedYaml12 {
  let events: Event[];
  try {
    events = parseEvents(text, { maxDepth: MAX_DEPTH });
  } catch (cause) {
    return { ok: false, ...errorOf(cause), warnings: [] };
  }
  const warnings = directiveWarnings(events);
  const lines = lineStarts(text);
  const walked = walk(events, text, lines, options.maxAliasNodes ?? 0);
  if ('message' in walked) return { ok: false, ...walked, warnings };
  try {
    const [data = null] = constructFromEvents(events, { source: text, schema: options.schema === 'failsafe' ? FAILSAFE_SCHEMA : CORE_SCHEMA });
    return { ok: true, data, constructs: walked.constructs, warnings };
  } catch (cause) {
    return { ok: false, ...errorOf(cause), warnings };
  }
}

function directiveWarnings(events: readonly Event[]): string[] {
  const warnings: string[] = [];
  for (const event of events) {
    if (event.type !== EVENT_ID.DOCUMENT) continue;
    for (const directive of event.directives) {
      if (directive.kind === 'yaml' && directive.version !== '1.2') {
        warnings.push(`its %YAML ${directive.version} directive was not followed: read as YAML 1.2, where on, off, yes and no are text`);
      }
    }
  }
  return warnings;
}

interface Open {
  /** Nodes in the collection so far, itself included, with each alias counted as what it stands for. */
  nodes: number;
  anchor: string | undefined;
}

/**
 * One pass over the events: where each construct is, whether a second document follows the first,
 * and how many nodes the value holds once every alias is expanded.
 */
function walk(events: readonly Event[], text: string, lines: readonly number[], maxAliasNodes: number): { constructs: YamlConstruct[] } | { message: string; line?: number } {
  const constructs: YamlConstruct[] = [];
  const anchored = new Map<string, number>();
  const stack: Open[] = [];
  let documents = 0;
  let expanded = 0;
  const add = (nodes: number, anchor: string | undefined) => {
    const parent = stack.at(-1);
    if (parent) parent.nodes += nodes;
    if (anchor !== undefined) anchored.set(anchor, nodes);
  };
  for (const event of events) {
    if (event.type === EVENT_ID.DOCUMENT) {
      documents += 1;
      continue;
    }
    if (event.type === EVENT_ID.POP) {
      const closed = stack.pop();
      if (closed) add(closed.nodes, closed.anchor);
      continue;
    }
    if (documents > 1) return { message: 'more than one YAML document (a --- or ... line inside the text)', line: lineOf(lines, startOf(event)) };
    const line = lineOf(lines, startOf(event));
    if (event.type === EVENT_ID.ALIAS) {
      constructs.push({ kind: 'alias', line });
      if (maxAliasNodes === 0) return { message: 'aliases (*name) are not allowed', line };
      const name = text.slice(event.anchorStart, event.anchorEnd);
      // Inside the collection it names, an alias makes the value contain itself: no JSON, no end to a walk.
      if (stack.some((open) => open.anchor === name)) return { message: `the alias *${name} is inside the node it names (a value that contains itself)`, line };
      const nodes = anchored.get(name) ?? 1;
      expanded += nodes;
      if (expanded > maxAliasNodes) return { message: `aliases expand to more than ${maxAliasNodes} nodes`, line };
      add(nodes, undefined);
      continue;
    }
    const anchor = event.anchorStart >= 0 ? text.slice(event.anchorStart, event.anchorEnd) : undefined;
    if (anchor !== undefined) constructs.push({ kind: 'anchor', line });
    if (event.tagStart >= 0) constructs.push({ kind: 'tag', line });
    if (event.type === EVENT_ID.SCALAR) add(1, anchor);
    else {
      if (event.style === COLLECTION_STYLE.FLOW) constructs.push({ kind: 'flow', line });
      stack.push({ nodes: 1, anchor });
    }
  }
  if (documents > 1) return { message: 'more than one YAML document (a --- or ... line inside the text)' };
  return { constructs };
}

/** Where a node begins: its anchor or tag when it has one, else its value. */
function startOf(event: Exclude<Event, { type: typeof EVENT_ID.DOCUMENT | typeof EVENT_ID.POP }>): number {
  if (event.type === EVENT_ID.ALIAS) return event.anchorStart;
  const starts = [event.anchorStart, event.tagStart, event.type === EVENT_ID.SCALAR ? event.valueStart : event.start].filter((offset) => offset >= 0);
  return Math.min(...starts);
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) starts.push(at + 1);
  return starts;
}

/** The 1-based line holding `offset`. */
function lineOf(starts: readonly number[], offset: number): number {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if ((starts[middle] ?? 0) <= offset) low = middle;
    else high = middle - 1;
  }
  return low + 1;
}

/** js-yaml's reasons that say too little to the author of a file; the rest are plain already. */
const PLAINER: Record<string, string> = {
  'directives end mark is expected': 'a %YAML or %TAG directive must be followed by a --- line',
};

function errorOf(cause: unknown): { message: string; line?: number } {
  if (cause instanceof YAMLException) return { message: PLAINER[cause.reason] ?? cause.reason, ...(cause.mark ? { line: cause.mark.line + 1 } : {}) };
  // Not the parser's own refusal (a stack or memory limit): still a refusal of this text, not a crash.
  return { message: cause instanceof Error ? cause.message : String(cause) };
}

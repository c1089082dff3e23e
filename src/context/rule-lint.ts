/**
 * @module context/rule-lint
 * A lint: something about a rule file that a client would get wrong without a word (frontmatter it
 * cannot parse, a glob that matches nothing, an import that does not resolve, a file over its size
 * cap, a rule no client of the repository loads, two files of one directory that clients resolve
 * differently). Produced by providers/rules/lints (`lintRules`, a pure function over the rule set);
 * this schema is apart from it so every JSON output that carries lints (`groundwork rules --json`,
 * the check run's rules report, MCP `rules_for_paths`) shares one shape without loading the lints.
 *
 * Bounded like the verdicts: repository text decides how many files there are and what they say.
 */
import * as z from 'zod';
import { lazySchema } from '../lib/lazy-schema.ts';
import { CLIENT_NAMES, type ClientName } from './client.ts';

export const LINT_CODES = [
  /** Frontmatter the client cannot parse: bad YAML, never closed, not a mapping, too large. */
  'frontmatter-unreadable',
  /** Frontmatter that parses but says something the client reads otherwise (`globs` in `.claude/rules`, `applyTo` as a list, a quoted `alwaysApply`). */
  'frontmatter-field',
  /** A file in a rules directory the client skips for its name (a plain `.md` in `.cursor/rules`). */
  'ignored-file',
  /** A glob that matches no file at the commit. */
  'glob-matches-nothing',
  /** An `@` import that names no file at the commit (missing, a directory, binary). */
  'import-unresolved',
  /** An `@` import that leaves the tree (`..` past the root, absolute, home, into `.git`). */
  'import-outside-tree',
  /** A file the client cuts or drops for its size cap. */
  'over-size-cap',
  /** A rule file no client of the set loads by itself, from any working directory. */
  'loaded-by-no-client',
  /** Two files in one directory, different text, and the clients of the set read different ones. */
  'directory-disagreement',
] as const;
export type LintCode = (typeof LINT_CODES)[number];

/** `error`: a client silently loses a rule or part of it (CI should fail); `warning`: probably not what was meant. */
export const LINT_SEVERITIES = ['error', 'warning'] as const;
export type LintSeverity = (typeof LINT_SEVERITIES)[number];

/** Lints one answer carries; the rest are counted (`leftOut`). */
export const MAX_LINTS = 200;
export const MAX_LINT_PATH_CHARS = 512;
export const MAX_LINT_MESSAGE_CHARS = 400;
const MAX_LINT_FACTS = 8;
const MAX_LINT_RELATED = 8;

export const RuleLintSchema = lazySchema(() => z.object({
  code: z.enum(LINT_CODES),
  severity: z.enum(LINT_SEVERITIES),
  /** The file the lint is about. */
  path: z.string().min(1).max(MAX_LINT_PATH_CHARS),
  /** 1-based line in that file, where one line is the cause. */
  line: z.number().int().positive().optional(),
  /** The clients concerned, in `CLIENT_NAMES` order; `none` is Groundwork itself. */
  clients: z.array(z.enum(CLIENT_NAMES)).max(CLIENT_NAMES.length),
  /** Names the cause and what the client does with it. */
  message: z.string().min(1).max(MAX_LINT_MESSAGE_CHARS),
  /** Ids of the client facts (src/clients/facts, docs/clients.md) it rests on. */
  facts: z.array(z.string().min(1).max(64)).max(MAX_LINT_FACTS),
  /** Other files it involves (the other file of a directory, an import's target). */
  related: z.array(z.string().min(1).max(MAX_LINT_PATH_CHARS)).max(MAX_LINT_RELATED).optional(),
}));
export type RuleLint = z.infer<typeof RuleLintSchema>;

/** Clips what repository text decides (paths, message) to the schema's bounds, keeping the end of paths and the start of messages. */
export function boundLint(lint: RuleLint): RuleLint {
  const path = (text: string) => (text.length <= MAX_LINT_PATH_CHARS ? text : `…${text.slice(text.length - MAX_LINT_PATH_CHARS + 1)}`);
  const message = lint.message.length <= MAX_LINT_MESSAGE_CHARS ? lint.message : `${lint.message.slice(0, MAX_LINT_MESSAGE_CHARS - 1)}…`;
  const clients = CLIENT_NAMES.filter((name: ClientName) => lint.clients.includes(name));
  return {
    ...lint,
    path: path(lint.path),
    message,
    clients,
    facts: [...new Set(lint.facts)].slice(0, MAX_LINT_FACTS),
    ...(lint.related ? { related: [...new Set(lint.related)].slice(0, MAX_LINT_RELATED).map(path) } : {}),
  };
}

/** Whether any lint fails a run (`groundwork rules` exits 1). */
export function hasErrors(lints: readonly RuleLint[]): boolean {
  return lints.some((lint) => lint.severity === 'error');
}

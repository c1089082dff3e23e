/**
 * @module providers/rules/lints/frontmatter
 * Frontmatter a client reads otherwise than it was written for, in the three formats that scope a
 * rule by frontmatter, each as its own client reads it:
 * - Cursor `.mdc` (`cursor.rules`, `cursor.frontmatter`): a file that is not `.mdc` is ignored;
 *   frontmatter it cannot parse skips the rule; `alwaysApply: "true"` (quoted) is not set; it
 *   scopes with `globs`, not `paths` or `applyTo`; `globs` as a YAML list is not documented.
 * - Claude Code `.claude/rules` (`claude.rules`, `claude.rules-frontmatter`): frontmatter it
 *   cannot parse skips the rule; it documents `paths`, so a `globs` or `applyTo` key may leave the
 *   rule unscoped (a warning: reports disagree); a `paths` that is neither a string nor a list loads nothing.
 * - Copilot `.github/instructions` (`copilot.vscode.apply-to`, `copilot.vscode.apply-to-string`):
 *   a header never closed swallows the file; a YAML list `applyTo` is dropped; a pattern starting
 *   with `/` is an absolute path on disk to VS Code; no `applyTo` means never attached by itself.
 * A format's lints count only when its client is in the repository's set.
 */
import type { ClientName } from '../../../context/client.ts';
import type { RuleLint } from '../../../context/rule-lint.ts';
import { splitFrontmatter } from '../../frontmatter.ts';
import { globsField, readRuleFrontmatter } from '../formats/rule-frontmatter.ts';
import type { LintFile, LintInput } from './lint-input.ts';
import { keyLine, problemLine } from './lines.ts';

const CLIENT_OF: Readonly<Record<string, ClientName>> = { 'cursor-rule': 'cursor', 'claude-rule': 'claude-code', 'github-instructions': 'copilot' };

export function frontmatterLints(input: LintInput): RuleLint[] {
  const out: RuleLint[] = [];
  for (const file of input.files) {
    const client = CLIENT_OF[file.format];
    if (client === undefined || !input.clients.includes(client) || file.text === undefined || file.found === undefined) continue;
    const lint = (code: RuleLint['code'], severity: RuleLint['severity'], message: string, facts: string[], line?: number): void => {
      out.push({ code, severity, path: file.path, ...(line === undefined ? {} : { line }), clients: [client], message, facts });
    };
    if (file.format === 'cursor-rule') cursorLints(file, file.text, lint);
    else if (file.format === 'claude-rule') claudeLints(file.text, lint);
    else copilotLints(file.text, lint);
  }
  return out;
}

type Lint = (code: RuleLint['code'], severity: RuleLint['severity'], message: string, facts: string[], line?: number) => void;

/** Fields of the frontmatter, or the problem with it (already reported). */
function fieldsOf(text: string, lint: Lint, says: string, fact: string): Readonly<Record<string, unknown>> | undefined {
  const read = readRuleFrontmatter(text);
  if (read.ok) return read.fields;
  lint('frontmatter-unreadable', 'error', `${says}: ${read.problem}`, [fact], problemLine(read.problem));
  return undefined;
}

function cursorLints(file: LintFile, text: string, lint: Lint): void {
  if (!file.path.toLowerCase().endsWith('.mdc')) {
    lint('ignored-file', 'error', 'Cursor reads only .mdc files in .cursor/rules and ignores this one: rename it to .mdc', ['cursor.rules']);
    return;
  }
  const fields = fieldsOf(text, lint, 'Cursor skips a rule whose frontmatter it cannot parse, without a word', 'cursor.frontmatter');
  if (!fields) return;
  const always = keyLine(text, 'alwaysApply');
  if (always !== undefined && /^alwaysApply\s*:\s*["']\s*true\s*["']/i.test(text.split('\n')[always - 1] ?? '')) {
    lint('frontmatter-field', 'error', 'Cursor reads alwaysApply: "true" (a quoted string) as not set, so the rule is not always applied: write alwaysApply: true', ['cursor.frontmatter'], always);
  }
  if (fields['globs'] === undefined) {
    for (const key of ['paths', 'applyTo']) {
      if (fields[key] !== undefined) lint('frontmatter-field', 'error', `Cursor scopes a rule with globs, not ${key}: no file attaches this rule`, ['cursor.rules'], keyLine(text, key));
    }
  } else if (Array.isArray(fields['globs'])) {
    lint('frontmatter-field', 'warning', "Cursor's docs write globs as one comma-separated string; a YAML list is not documented to work", ['cursor.frontmatter'], keyLine(text, 'globs'));
  }
}

function claudeLints(text: string, lint: Lint): void {
  const fields = fieldsOf(text, lint, 'Claude Code skips a rule whose frontmatter it cannot parse, without a word', 'claude.rules');
  if (!fields) return;
  const paths = globsField(fields, 'paths');
  if (paths === 'bad') lint('frontmatter-field', 'error', 'paths is neither a string nor a list of globs: Claude Code does not load this rule', ['claude.rules'], keyLine(text, 'paths'));
  if (fields['paths'] === undefined) {
    for (const key of ['globs', 'applyTo']) {
      if (fields[key] !== undefined) lint('frontmatter-field', 'warning', `Claude Code documents paths, not ${key}, for .claude/rules: it may load this rule in every session, unscoped`, ['claude.rules-frontmatter'], keyLine(text, key));
    }
  }
}

function copilotLints(text: string, lint: Lint): void {
  if (splitFrontmatter(text).kind === 'unclosed') {
    lint('frontmatter-unreadable', 'error', 'the frontmatter opened with --- never closes: VS Code takes the whole file as its header, so the instructions are empty', ['copilot.vscode.apply-to-string'], 1);
    return;
  }
  const fields = fieldsOf(text, lint, 'Copilot may drop this file\'s applyTo (VS Code keeps only what parses)', 'copilot.vscode.apply-to-string');
  if (!fields) return;
  const applyTo = fields['applyTo'];
  const line = keyLine(text, 'applyTo');
  if (applyTo === undefined || applyTo === null || (typeof applyTo === 'string' && applyTo.trim() === '')) {
    const other = ['globs', 'paths'].find((key) => fields[key] !== undefined);
    if (other !== undefined) lint('frontmatter-field', 'error', `Copilot scopes instructions with applyTo, not ${other}: it never attaches this file by itself`, ['copilot.vscode.apply-to'], keyLine(text, other));
    else lint('frontmatter-field', 'warning', 'no applyTo: Copilot never attaches this file by itself (VS Code only lists it in its instructions index)', ['copilot.vscode.apply-to'], line);
    return;
  }
  if (typeof applyTo !== 'string') {
    lint('frontmatter-field', 'error', 'VS Code reads applyTo only as a string: a YAML list is dropped without a word and the file is never attached; write one comma-separated string', ['copilot.vscode.apply-to-string'], line);
    return;
  }
  const rooted = applyTo.split(',').map((part) => part.trim()).filter((part) => part.startsWith('/'));
  if (rooted.length > 0) {
    lint('frontmatter-field', 'warning', `VS Code matches ${rooted.map((part) => JSON.stringify(part.slice(0, 60))).join(', ')} as an absolute path on disk, so it never matches there (GitHub anchors it at the root): drop the leading /`, ['copilot.vscode.apply-to-string'], line);
  }
}

/**
 * @module triggers/slack/knowledge-command
 * The knowledge subcommands of `/groundwork`:
 *   `remember owner/repo "statement" <source-url>`  records a fact, sourced to the URL
 *   `knowledge owner/repo`                          lists what is due for review
 * `remember` and `knowledge` hold no `/`, so they can never be read as a repository. Quotes may
 * be straight or typographic (Slack clients curl them), and the URL may arrive as Slack formats
 * links, `<https://…>` or `<https://…|label>`. The repository is checked as every subcommand
 * checks it (GitHub's name rules, see `parseFullName`), so `acme/..` or `acme/x.git` never reaches
 * the team's allowlist as if it were a repository under `acme/*`.
 */
import { parseFullName } from '../../sources/github/repo-name.ts';

export type KnowledgeCommand =
  | { kind: 'remember'; fullName: string; statement: string; sourceUrl: string }
  | { kind: 'due'; fullName: string };

export type ParsedKnowledgeCommand = { ok: true; command: KnowledgeCommand } | { ok: false; problem: string } | { ok: 'not-knowledge' };

export const KNOWLEDGE_USAGE = [
  '• `remember acme/widgets "Deploys need AWS_REGION set" https://github.com/acme/widgets/blob/<commit>/docs/deploy.md` (records a fact; the source is required)',
  '• `knowledge acme/widgets` (lists knowledge due for review)',
].join('\n');

const REMEMBER = /^(\S+)\s+["“”](.*)["“”]\s+<?([^\s<>|]+)(?:\|[^>]*)?>?$/s;

/**
 * @example
 * parseKnowledgeCommand('remember acme/widgets “Use tabs” <https://x.test/a|a>')
 * // { ok: true, command: { kind: 'remember', fullName: 'acme/widgets', statement: 'Use tabs', sourceUrl: 'https://x.test/a' } }
 */
export function parseKnowledgeCommand(text: string): ParsedKnowledgeCommand {
  const trimmed = text.trim();
  const [verb = '', ...rest] = trimmed.split(/\s+/);
  const args = trimmed.slice(verb.length).trim();
  if (verb === 'knowledge') {
    if (rest.length !== 1) return { ok: false, problem: 'name one repository: `knowledge owner/repo`' };
    const problem = nameProblem(args);
    if (problem) return { ok: false, problem };
    return { ok: true, command: { kind: 'due', fullName: args } };
  }
  if (verb !== 'remember') return { ok: 'not-knowledge' };
  const match = REMEMBER.exec(args);
  if (!match) return { ok: false, problem: 'write `remember owner/repo "what to remember" <source URL>`: the statement in quotes, then the URL that supports it' };
  const [, fullName = '', statement = '', sourceUrl = ''] = match;
  const problem = nameProblem(fullName);
  if (problem) return { ok: false, problem };
  return { ok: true, command: { kind: 'remember', fullName, statement: statement.trim(), sourceUrl } };
}

/** Why `fullName` is not a GitHub repository's `owner/name`, said as the task command says it. */
function nameProblem(fullName: string): string | undefined {
  const name = parseFullName(fullName);
  if (name.ok) return undefined;
  return name.reason === 'must be owner/name' ? `\`${fullName}\` is not \`owner/repo\`` : `\`${fullName}\`: ${name.reason}`;
}

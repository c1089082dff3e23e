/**
 * @module triggers/slack/handle-knowledge
 * Runs a verified knowledge subcommand for a Slack team: the team is the tenant, the person who
 * typed it the author, and the team's repository allowlist applies as it does to tasks. A source
 * URL that points at a file of the repository at a commit on this deployment's GitHub
 * (`…/owner/repo/blob/<sha>/path`) becomes `path@revision`, so the memory provider can check it
 * against later commits; any other URL is kept as the source's uri.
 */
import { addDays, utcDate } from '../../lib/utc-date.ts';
import { createKnowledgeSchema, type SourceInputSchema } from '../../knowledge/input.ts';
import type { KnowledgeService } from '../../knowledge/knowledge-service.ts';
import { DUE_WITHIN_DAYS } from '../../knowledge/review.ts';
import { knowledgeScope } from '../../knowledge/scope.ts';
import { escapeSlack } from '../../notify/slack-response.ts';
import { githubWebRoot } from '../../sources/github/location.ts';
import { fieldPath } from '../../context/zod-issues.ts';
import type { z } from 'zod';
import type { KnowledgeCommand } from './knowledge-command.ts';

export interface KnowledgeCommandDeps {
  knowledge: KnowledgeService;
  githubApiUrl: string;
  now(): number;
}

/** Due objects listed in one reply; Slack messages should stay short. */
const MAX_LISTED = 20;
const PREVIEW_CHARS = 100;

export async function handleKnowledgeCommand(command: KnowledgeCommand, who: { team: string; user: string }, deps: KnowledgeCommandDeps): Promise<string> {
  const tenant = `slack:${who.team}`;
  // Commands name GitHub repositories only (the parser took `owner/name` and nothing else).
  const found = knowledgeScope(tenant, command.fullName, { githubApiUrl: deps.githubApiUrl, gitAllowedHosts: [], localRepositories: {} });
  if (!found.ok) return `Could not read \`${command.fullName}\`: ${found.reason}.`;
  const today = utcDate(deps.now());

  if (command.kind === 'due') {
    const dueBy = addDays(today, DUE_WITHIN_DAYS);
    const page = await deps.knowledge.list(found.scope, { status: 'due', dueBy }, null, MAX_LISTED);
    if (page.items.length === 0) return `Nothing about \`${command.fullName}\` is due for review by ${dueBy}.`;
    const lines = page.items.map((k) => `• \`${k.id}\` review by ${k.reviewBy} (${k.kind}): ${escapeSlack(preview(k.statement))}`);
    const more = page.next ? [`More are due: \`GET /knowledge?repo=${command.fullName}&status=due\` lists them all.`] : [];
    return [`*Due for review* in \`${command.fullName}\` by ${dueBy}:`, ...lines, ...more, 'Refresh one with `PATCH /knowledge/<id>` (a new review date), or retire it with `POST /knowledge/<id>/retire`.'].join('\n');
  }

  const parsed = createKnowledgeSchema(today).safeParse({
    repo: command.fullName,
    kind: 'fact',
    statement: command.statement,
    source: sourceFromUrl(command.sourceUrl, command.fullName, deps.githubApiUrl),
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return `Nothing was remembered: ${issue ? `${fieldPath('', issue.path)}: ${issue.message}` : 'the command is not valid'}.`;
  }
  const { repo: _repo, ...body } = parsed.data;
  const result = await deps.knowledge.create(found.scope, { ...body, author: `${tenant}/${who.user}` });
  if (result.status !== 'ok') return `Nothing was remembered: ${result.status === 'conflict' ? result.message : 'the repository was not found'}.`;
  const { knowledge } = result;
  const where = knowledge.source.revision && knowledge.source.path ? ` It cites \`${escapeSlack(knowledge.source.path)}@${knowledge.source.revision.slice(0, 12)}\`, which tasks check against their commit.` : '';
  return `Remembered \`${knowledge.id}\` for \`${command.fullName}\` (fact), review by ${knowledge.reviewBy}.${where}`;
}

/** `…/owner/repo/blob/<ref>/<path>` on this deployment's GitHub names a file; a 40-hex ref pins it. */
function sourceFromUrl(url: string, fullName: string, githubApiUrl: string): z.input<typeof SourceInputSchema> {
  const root = githubWebRoot(githubApiUrl);
  const prefix = `${root}/${fullName}/blob/`.toLowerCase();
  if (!url.toLowerCase().startsWith(prefix)) return { uri: url };
  const rest = url.slice(prefix.length).replace(/[?#].*$/, '');
  const cut = rest.indexOf('/');
  if (cut < 1) return { uri: url };
  const ref = rest.slice(0, cut);
  let path: string;
  try {
    path = decodeURIComponent(rest.slice(cut + 1));
  } catch {
    return { uri: url };
  }
  if (path === '') return { uri: url };
  return { uri: url, path, ...(/^[0-9a-f]{40}$/i.test(ref) ? { revision: ref } : {}) };
}

function preview(statement: string): string {
  const line = statement.replace(/\s+/g, ' ');
  return line.length > PREVIEW_CHARS ? `${line.slice(0, PREVIEW_CHARS - 1)}…` : line;
}

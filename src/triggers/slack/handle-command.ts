/**
 * @module triggers/slack/handle-command
 * A verified slash command -> the ephemeral reply Slack shows the person who typed it. Every
 * outcome is a message, because Slack shows any non-200 answer as a bare failure: bad syntax
 * gets the usage text, a repository the team may not target is refused, and an upstream
 * failure is explained.
 */
import { ApiError } from '../../http/errors.ts';
import type { TaskRequestInput } from '../../tasks/task-request.ts';
import type { TaskService } from '../../tasks/task-service.ts';
import { pullRequestEvidence, type PullRequestLookup } from '../github/pull-request.ts';
import { installationForRepo } from '../github/installations.ts';
import { repoAllowed } from './allowlist.ts';
import { parseSlackCommand, USAGE } from './command.ts';
import { handleKnowledgeCommand, type KnowledgeCommandDeps } from './handle-knowledge.ts';
import { parseKnowledgeCommand } from './knowledge-command.ts';
import type { SlackCommand } from './command.ts';
import { SlashCommandSchema } from './slash-command.ts';

export { SlashCommandSchema };


export interface SlackMessage {
  response_type: 'ephemeral';
  text: string;
}

export const ephemeral = (text: string): SlackMessage => ({ response_type: 'ephemeral', text });

export interface CommandDeps extends KnowledgeCommandDeps {
  /** A digest of what the request signature covers (timestamp and body). */
  signedDigest: string;
  tasks: TaskService;
  tenants: KVNamespace;
  teamRepos: Readonly<Record<string, readonly string[]>>;
  lookup: PullRequestLookup;
}

export async function handleSlashCommand(form: URLSearchParams, deps: CommandDeps): Promise<SlackMessage> {
  const fields = SlashCommandSchema.safeParse(Object.fromEntries(form));
  if (!fields.success) return ephemeral('This request did not look like a Slack slash command, so nothing was started.');
  const { team_id: team, user_id: user, text, response_url: responseUrl, trigger_id: triggerId } = fields.data;
  const knowledge = parseKnowledgeCommand(text);
  if (knowledge.ok === false) return ephemeral(`${knowledge.problem}.\n${USAGE}`);
  if (knowledge.ok === true) {
    const { fullName } = knowledge.command;
    if (!repoAllowed(deps.teamRepos, team, fullName)) return refused(fullName);
    try {
      return ephemeral(await handleKnowledgeCommand(knowledge.command, { team, user }, deps));
    } catch (error) {
      console.error('knowledge command failed', error);
      return ephemeral('Could not reach the knowledge store because of an internal error. Please try again.');
    }
  }
  const parsed = parseSlackCommand(text);
  if (!parsed.ok) return ephemeral(`${parsed.problem}.\n${USAGE}`);
  const { command } = parsed;
  const fullName = `${command.owner}/${command.repo}`;
  if (!repoAllowed(deps.teamRepos, team, fullName)) return refused(fullName);
  try {
    // Read through the App when it is installed on the repository; else the host's GITHUB_TOKEN.
    const installation = await installationForRepo(deps.tenants, fullName);
    const pinned = await pinPullRequest(command, installation?.installationId, deps);
    if (typeof pinned === 'string') return ephemeral(pinned);
    const request: TaskRequestInput = {
      origin: 'slack',
      tenant: `slack:${team}`,
      repo: fullName,
      cwd: command.cwd,
      ...(command.paths.length > 0 ? { paths: command.paths } : {}),
      request: command.request,
      skills: command.skills,
      // Allowed repositories are the host's decision, so their committed content is trusted.
      trusted: true,
      ...(command.ref === undefined ? {} : { ref: command.ref }),
      ...pinned,
      ...(installation ? { githubInstallationId: installation.installationId } : {}),
      notify: { kind: 'slack', responseUrl },
    };
    // Keyed only by signed data, so a replay within the signature's five minutes maps to this task.
    const idempotencyKey = triggerId === undefined ? `slack-signed:${deps.signedDigest}` : `slack:${triggerId}`;
    const created = await deps.tasks.create(request, { idempotencyKey });
    const what = command.pullNumber === undefined ? `\`${fullName}\`` : `\`${fullName}\` pull request #${command.pullNumber}`;
    return ephemeral(
      created.created
        ? `Assembling context for ${what} (task \`${created.id}\`). The result will be posted here.`
        : `Already working on this command: task \`${created.id}\` is ${created.status}.`,
    );
  } catch (error) {
    if (error instanceof ApiError && error.code !== 'internal') return ephemeral(`Could not start the task: ${error.message}.`);
    console.error('slash command failed', error);
    return ephemeral('Could not start the task because of an internal error. Please try again.');
  }
}

const refused = (fullName: string): SlackMessage =>
  ephemeral(`This workspace may not target \`${fullName}\`. Ask an administrator to add it to the workspace's allowed repositories.`);

/** Base commit and evidence for `#PR`, or why they could not be had. */
async function pinPullRequest(command: SlackCommand, installationId: number | undefined, deps: CommandDeps): Promise<Partial<TaskRequestInput> | string> {
  if (command.pullNumber === undefined) return {};
  const fullName = `${command.owner}/${command.repo}`;
  if (installationId === undefined) return `The GitHub App is not installed on \`${fullName}\`, so pull request #${command.pullNumber} cannot be read. Name a branch with \`@ref\` instead.`;
  const pr = await deps.lookup({ installationId, owner: command.owner, repo: command.repo, number: command.pullNumber });
  return {
    baseCommit: pr.baseSha,
    agent: 'reviewer',
    pullRequest: pullRequestEvidence(pr),
  };
}

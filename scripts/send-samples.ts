/**
 * `npm run samples [-- BASE_URL]`: sends a signed sample GitHub webhook (a `pull_request` opened,
 * captured by @octokit/webhooks-examples) and a signed Slack slash command to a local instance
 * (default http://localhost:8787, i.e. `npm run dev`), signed with the secrets in .dev.vars, and
 * prints each status and body. It checks the wiring of secrets, signatures and routes; what the
 * tasks do next needs GitHub and Slack themselves.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type Examples from '@octokit/webhooks-examples';
import { signGitHubPayload } from '../src/triggers/github/verify.ts';
import { signSlackRequest } from '../src/triggers/slack/verify.ts';

// The package is a JSON file, which Node's ESM loader imports only with an attribute TypeScript's module setting refuses.
const examples = createRequire(import.meta.url)('@octokit/webhooks-examples') as typeof Examples;
const base = new URL(process.argv[2] ?? 'http://localhost:8787');
const vars = { ...readDevVars('.dev.vars'), ...pick(process.env, ['GITHUB_WEBHOOK_SECRET', 'SLACK_SIGNING_SECRET', 'SLACK_TEAM_REPOS']) };

await sendWebhook();
await sendSlackCommand();

async function sendWebhook(): Promise<void> {
  const secret = vars.GITHUB_WEBHOOK_SECRET;
  if (!secret) return skip('GitHub webhook', 'GITHUB_WEBHOOK_SECRET is not set in .dev.vars or the environment');
  const payload = examples.find((event) => event.name === 'pull_request')?.examples.find((example) => 'action' in example && example.action === 'opened');
  if (!payload) throw new Error('@octokit/webhooks-examples has no pull_request opened example');
  const body = JSON.stringify({ ...payload, installation: { id: 1, node_id: 'sample' } });
  await show('GitHub webhook (pull_request opened)', '/webhooks/github', {
    'content-type': 'application/json',
    'x-github-event': 'pull_request',
    'x-github-delivery': crypto.randomUUID(),
    'x-hub-signature-256': await signGitHubPayload(secret, body),
  }, body);
}

async function sendSlackCommand(): Promise<void> {
  const secret = vars.SLACK_SIGNING_SECRET;
  if (!secret) return skip('Slack command', 'SLACK_SIGNING_SECRET is not set in .dev.vars or the environment');
  const team = Object.keys(JSON.parse(vars.SLACK_TEAM_REPOS ?? '{}') as Record<string, unknown>)[0] ?? 'T00000001';
  const body = new URLSearchParams({
    team_id: team,
    user_id: 'U00000001',
    command: '/groundwork',
    text: 'acme/widgets Fix the flaky login test $tdd',
    response_url: `https://hooks.slack.com/commands/${team}/0/sample`,
  }).toString();
  const timestamp = String(Math.floor(Date.now() / 1000));
  await show('Slack command (/groundwork)', '/slack/commands', {
    'content-type': 'application/x-www-form-urlencoded',
    'x-slack-request-timestamp': timestamp,
    'x-slack-signature': await signSlackRequest(secret, timestamp, body),
  }, body);
}

async function show(label: string, path: string, headers: Record<string, string>, body: string): Promise<void> {
  const url = new URL(path, base);
  try {
    const response = await fetch(url, { method: 'POST', headers, body, signal: AbortSignal.timeout(15_000) });
    console.log(`${label}: POST ${url} -> ${response.status}\n  ${await response.text()}`);
  } catch (error) {
    console.log(`${label}: POST ${url} failed: ${error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error)} (is \`npm run dev\` running?)`);
    process.exitCode = 1;
  }
}

function skip(label: string, why: string): void {
  console.log(`${label}: skipped: ${why}`);
}

/** KEY=VALUE lines; `#` comments; one pair of surrounding quotes removed. */
function readDevVars(path: string): Record<string, string> {
  if (!existsSync(path)) return {};
  const vars: Record<string, string> = {};
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const match = /^\s*([A-Z0-9_]+)\s*=\s*(.*?)\s*$/.exec(line);
    if (match?.[1] && match[2] !== undefined) vars[match[1]] = match[2].replace(/^(["'])(.*)\1$/, '$2');
  }
  return vars;
}

function pick(env: NodeJS.ProcessEnv, names: string[]): Record<string, string> {
  return Object.fromEntries(names.flatMap((name) => (env[name] ? [[name, env[name]]] : [])));
}

/**
 * @module routes/slack-command
 * `POST /slack/commands`. The signature and timestamp are checked before anything is read
 * (401, nothing stored); after that every answer is HTTP 200 with an ephemeral message, as
 * Slack expects, and the assembled result is posted to `response_url` later.
 */
import { Hono } from '../http/hono.ts';
import type { AppEnv } from '../http/app-env.ts';
import { getConfig } from '../env.ts';
import { sha256Hex } from '../lib/sha256.ts';
import { isMediaType } from '../http/media-type.ts';
import { ApiError } from '../http/errors.ts';
import { readBodyBytes } from '../http/read-body.ts';
import { createPullRequestLookup } from '../triggers/github/pull-request.ts';
import { handleSlashCommand } from '../triggers/slack/handle-command.ts';
import { verifySlackRequest } from '../triggers/slack/verify.ts';
import { stampPublicUrl } from '../tasks/public-url.ts';
import type { RouteDeps } from './deps.ts';

export const SLACK_COMMAND_PATH = '/slack/commands';
/** Slash command bodies are a few hundred bytes; Slack caps command text at 4,000 characters. */
const MAX_BODY_BYTES = 64 * 1024;

export interface SlackCommandOptions {
  /** Outbound fetch for the pull request lookup `#PR` needs; tests intercept it. */
  fetch?: typeof fetch;
}

/**
 * @example
 * app.route('/', slackCommandRoute(deps));
 */
export function slackCommandRoute(deps: RouteDeps, options: SlackCommandOptions = {}): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.post(SLACK_COMMAND_PATH, async (c) => {
    if (!isMediaType(c.req.header('content-type'), 'application/x-www-form-urlencoded')) {
      throw new ApiError('unsupported_media_type', 'content-type must be application/x-www-form-urlencoded');
    }
    const config = getConfig(c.env);
    if (!config.SLACK_SIGNING_SECRET) throw new ApiError('not_configured', 'no Slack signing secret is configured');
    const body = await readBodyBytes(c.req.raw, MAX_BODY_BYTES);
    const verified = await verifySlackRequest({
      secret: config.SLACK_SIGNING_SECRET,
      timestamp: c.req.header('X-Slack-Request-Timestamp'),
      signature: c.req.header('X-Slack-Signature'),
      body,
      nowMs: deps.now(),
    });
    if (!verified.ok) throw new ApiError('unauthorized', verified.reason);

    const timestamp = c.req.header('X-Slack-Request-Timestamp') ?? '';
    const message = await handleSlashCommand(new URLSearchParams(new TextDecoder().decode(body)), {
      signedDigest: await sha256Hex(`v0:${timestamp}:${await sha256Hex(body)}`),
      tasks: stampPublicUrl(deps.tasks(c.env), new URL(c.req.url).origin),
      tenants: c.env.TENANTS,
      teamRepos: config.SLACK_TEAM_REPOS,
      lookup: createPullRequestLookup(config, options.fetch, c.env.TENANTS),
      knowledge: deps.knowledge(c.env),
      githubApiUrl: config.GITHUB_API_URL,
      now: deps.now,
    });
    return c.json(message, 200);
  });

  app.all(SLACK_COMMAND_PATH, (c) => {
    c.header('Allow', 'POST');
    throw new ApiError('method_not_allowed', `${c.req.method} is not allowed; use POST`);
  });
  return app;
}

/**
 * @module routes/github-webhook
 * `POST /webhooks/github`, checked in the order GitHub's own receivers use: method/path ->
 * content type (415) -> required headers (400 naming which) -> signature (401) -> JSON (400) ->
 * schema (400) -> dispatch. Nothing is stored before the signature and the schema pass.
 */
import { Hono } from '../http/hono.ts';
import type { AppEnv } from '../http/app-env.ts';
import { getConfig } from '../env.ts';
import { isMediaType } from '../http/media-type.ts';
import { ApiError } from '../http/errors.ts';
import { readBodyBytes } from '../http/read-body.ts';
import { dispatchDelivery, signedDeliveryKey } from '../triggers/github/dispatch.ts';
import { parseGitHubEvent } from '../triggers/github/events.ts';
import { createPullRequestLookup } from '../triggers/github/pull-request.ts';
import { verifyWithRotation } from '../triggers/github/verify.ts';
import { stampPublicUrl } from '../tasks/public-url.ts';
import type { RouteDeps } from './deps.ts';

export const GITHUB_WEBHOOK_PATH = '/webhooks/github';
const REQUIRED_HEADERS = ['X-GitHub-Event', 'X-GitHub-Delivery', 'X-Hub-Signature-256'] as const;
/** GitHub caps webhook payloads at 25 MB. */
const MAX_BODY_BYTES = 25 * 1024 * 1024;
/** GitHub sends a GUID, the same on a redelivery; nothing looser is accepted. */
const DELIVERY_ID = /^[A-Za-z0-9-]{1,100}$/;

export interface GitHubWebhookOptions {
  /** Outbound fetch for the pull request lookup an issue comment needs; tests intercept it. */
  fetch?: typeof fetch;
}

/**
 * @example
 * app.route('/', githubWebhookRoute(deps));
 */
export function githubWebhookRoute(deps: RouteDeps, options: GitHubWebhookOptions = {}): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.post(GITHUB_WEBHOOK_PATH, async (c) => {
    if (!isMediaType(c.req.header('content-type'), 'application/json')) {
      throw new ApiError('unsupported_media_type', 'content-type must be application/json');
    }
    const missing = REQUIRED_HEADERS.filter((name) => !c.req.header(name));
    if (missing.length > 0) throw new ApiError('bad_request', `missing header${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}`);
    const event = c.req.header('X-GitHub-Event') ?? '';
    const deliveryId = c.req.header('X-GitHub-Delivery') ?? '';
    if (!DELIVERY_ID.test(deliveryId)) throw new ApiError('bad_request', 'X-GitHub-Delivery must be a delivery GUID');

    const config = getConfig(c.env);
    const secrets = { current: config.GITHUB_WEBHOOK_SECRET, previous: config.GITHUB_WEBHOOK_SECRET_PREVIOUS };
    if (!secrets.current && !secrets.previous) throw new ApiError('not_configured', 'no GitHub webhook secret is configured');
    // A task accepted now could never read the repository or post its check run.
    const missingApp = [
      ...(config.GITHUB_APP_CLIENT_ID || config.GITHUB_APP_ID ? [] : ['GITHUB_APP_CLIENT_ID (or GITHUB_APP_ID)']),
      ...(config.GITHUB_APP_PRIVATE_KEY ? [] : ['GITHUB_APP_PRIVATE_KEY']),
    ];
    if (missingApp.length > 0) throw new ApiError('not_configured', `the GitHub App is not configured: set ${missingApp.join(' and ')}`);
    const body = await readBodyBytes(c.req.raw, MAX_BODY_BYTES);
    if (!(await verifyWithRotation(secrets, body, c.req.header('X-Hub-Signature-256')))) {
      throw new ApiError('unauthorized', 'X-Hub-Signature-256 does not match the body');
    }

    let json: unknown;
    try {
      json = JSON.parse(new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(body));
    } catch {
      throw new ApiError('bad_request', 'body is not valid JSON');
    }
    const result = await dispatchDelivery(parseGitHubEvent(event, json), await signedDeliveryKey(event, body), {
      tasks: stampPublicUrl(deps.tasks(c.env), new URL(c.req.url).origin),
      pullRequests: deps.pullRequests(c.env),
      tenants: c.env.TENANTS,
      appHandle: config.GITHUB_APP_HANDLE,
      lookup: createPullRequestLookup(config, options.fetch, c.env.TENANTS),
      now: deps.now,
    });

    switch (result.kind) {
      case 'task':
        return c.json({ taskId: result.taskId, status: result.status, duplicate: result.duplicate }, 202);
      case 'mailbox':
        return c.json({ taskId: result.taskId, mailboxItem: result.itemId, duplicate: result.duplicate }, 202);
      case 'installation':
        return c.json({ installationId: result.installationId, action: result.action, repositories: result.repositories }, 200);
      case 'ignored':
        return c.json({ ignored: result.reason }, 200);
    }
  });

  app.all(GITHUB_WEBHOOK_PATH, (c) => {
    c.header('Allow', 'POST');
    throw new ApiError('method_not_allowed', `${c.req.method} is not allowed; use POST`);
  });
  return app;
}

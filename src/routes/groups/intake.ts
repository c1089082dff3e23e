/**
 * @module routes/groups/intake
 * What triggers send: GitHub deliveries and Slack commands. Loaded by the Worker's entry on the
 * first such request an isolate serves (index.ts).
 */
import { routedApp } from '../../http/routed-app.ts';
import { githubWebhookRoute } from '../github-webhook.ts';
import { slackCommandRoute } from '../slack-command.ts';
import { deployedDeps } from './deployed-deps.ts';

export const app = routedApp((app) => app.route('/', githubWebhookRoute(deployedDeps)).route('/', slackCommandRoute(deployedDeps)));

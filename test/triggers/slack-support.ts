/**
 * @module test/triggers/slack-support
 * Slash commands as Slack posts them (form fields from Slack's documentation), signed with the
 * real signer, sent through the trigger app with a fake task service.
 */
import { signSlackRequest } from '../../src/triggers/slack/verify.ts';
import { fakeTaskService, NOW, SLACK_SECRET, testEnv, triggerApp } from './support.ts';

export const SLACK_URL = 'http://groundwork.test/slack/commands';
export const NOW_SECONDS = Math.floor(NOW / 1000);
export const RESPONSE_URL = 'https://hooks.slack.com/commands/T0001/1234/abcd';

export interface SlackOptions {
  timestamp?: number;
  secret?: string;
  signature?: string;
}

export async function command(text: string, options: SlackOptions = {}, fields: Record<string, string> = {}): Promise<RequestInit> {
  const body = new URLSearchParams({
    token: 'deprecated-verification-token',
    team_id: 'T0001',
    team_domain: 'acme',
    channel_id: 'C2147483705',
    channel_name: 'dev',
    user_id: 'U2147483697',
    user_name: 'steve',
    command: '/groundwork',
    text,
    api_app_id: 'A123456',
    response_url: RESPONSE_URL,
    trigger_id: '13345224609.738474920.8088930838d88f008e0',
    ...fields,
  }).toString();
  const timestamp = String(options.timestamp ?? NOW_SECONDS);
  return {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'X-Slack-Request-Timestamp': timestamp,
      'X-Slack-Signature': options.signature ?? (await signSlackRequest(options.secret ?? SLACK_SECRET, timestamp, body)),
    },
    body,
  };
}

export async function send(init: RequestInit, fetch?: typeof globalThis.fetch) {
  const tasks = fakeTaskService();
  const response = await triggerApp(tasks, fetch ? { fetch } : {}).request(SLACK_URL, init, testEnv());
  return { status: response.status, body: await response.json<{ response_type?: string; text?: string; error?: { code: string; message: string } }>(), tasks };
}

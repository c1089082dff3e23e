import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { accountKey, installationKey } from '../../src/triggers/github/installations.ts';
import type { InstallationRecord } from '../../src/triggers/github/installations.ts';
import { USAGE } from '../../src/triggers/slack/command.ts';
import { command, NOW_SECONDS, RESPONSE_URL, send, SLACK_URL as URL } from './slack-support.ts';
import { example, fakeTaskService, githubApi, testEnv, triggerApp } from './support.ts';

describe('request signing', () => {
  it.each([
    ['wrong secret', { secret: 'another-secret' }, 'X-Slack-Signature does not match the request'],
    ['mangled signature', { signature: 'v0=abc' }, 'X-Slack-Signature does not match the request'],
    ['v1 prefix', { signature: `v1=${'0'.repeat(64)}` }, 'X-Slack-Signature does not match the request'],
    ['replayed (6 minutes old)', { timestamp: NOW_SECONDS - 360 }, 'request timestamp is more than 5 minutes old'],
    ['future timestamp', { timestamp: NOW_SECONDS + 600 }, 'request timestamp is in the future'],
  ])('rejects a %s with 401 and stores nothing', async (_label, options, message) => {
    const { status, body, tasks } = await send(await command('acme/widgets fix the tests', options));
    expect(status).toBe(401);
    expect(body).toMatchObject({ error: { code: 'unauthorized', message } });
    expect(tasks.calls).toEqual([]);
  });

  it('accepts a timestamp just inside the five minutes', async () => {
    const { status, tasks } = await send(await command('acme/widgets fix the tests', { timestamp: NOW_SECONDS - 299 }));
    expect(status).toBe(200);
    expect(tasks.created()).toHaveLength(1);
  });

  it('rejects a request whose signature was made over another body', async () => {
    const init = await command('acme/widgets fix the tests');
    const { status, tasks } = await send({ ...init, body: String(init.body).replace('fix', 'delete') });
    expect(status).toBe(401);
    expect(tasks.calls).toEqual([]);
  });

  it('rejects a request without the timestamp header', async () => {
    const init = await command('acme/widgets fix the tests');
    const headers = new Headers(init.headers);
    headers.delete('X-Slack-Request-Timestamp');
    const { status, tasks } = await send({ ...init, headers });
    expect(status).toBe(401);
    expect(tasks.calls).toEqual([]);
  });
});

describe('commands', () => {
  it('creates a task with the ref, path and skills parsed, and acknowledges ephemerally', async () => {
    const { status, body, tasks } = await send(await command('tools/cli@release-2.1:services/api explain the retry policy $tdd'));
    expect(status).toBe(200);
    const [call] = tasks.calls;
    expect(body).toEqual({ response_type: 'ephemeral', text: `Assembling context for \`tools/cli\` (task \`${call?.id}\`). The result will be posted here.` });
    expect(call?.idempotencyKey).toBe('slack:13345224609.738474920.8088930838d88f008e0');
    expect(call?.request).toEqual({
      origin: 'slack',
      tenant: 'slack:T0001',
      repo: 'tools/cli',
      ref: 'release-2.1',
      cwd: 'services/api',
      paths: [],
      request: 'explain the retry policy $tdd',
      agent: 'entry',
      trusted: true,
      skills: ['tdd'],
      notify: { kind: 'slack', responseUrl: RESPONSE_URL },
      // Links posted when assembly ends are built on the origin the delivery reached.
      publicUrl: 'http://groundwork.test',
    });
  });

  it('pins #PR at its base commit through the installation that covers the repository', async () => {
    const record: InstallationRecord = { installationId: 5151, account: 'acme', selection: 'selected', repositories: ['acme/widgets'], suspended: false, updatedAt: '2026-11-01T00:00:00.000Z' };
    await env.TENANTS.put(installationKey(5151), JSON.stringify(record));
    await env.TENANTS.put(accountKey('acme'), '5151');
    const api = githubApi((call) => {
      if (!call.url.endsWith('/repos/acme/widgets/pulls/42')) return undefined;
      const pr = example('pull_request', 'opened').pull_request;
      pr.number = 42;
      pr.html_url = 'https://github.com/acme/widgets/pull/42';
      return Response.json(pr);
    });
    const { body, tasks } = await send(await command('acme/widgets#42:src review the error handling $review-checklist'), api);
    expect(body.text).toContain('`acme/widgets` pull request #42');
    expect(tasks.created()[0]).toEqual({
      origin: 'slack',
      tenant: 'slack:T0001',
      repo: 'acme/widgets',
      baseCommit: 'f95f852bd8fca8fcc58a9a2d6c842781e32a215e',
      cwd: 'src',
      paths: [],
      request: 'review the error handling $review-checklist',
      agent: 'reviewer',
      trusted: true,
      skills: ['review-checklist'],
      pullRequest: { number: 42, url: 'https://github.com/acme/widgets/pull/42', title: 'Update the README with new information.', body: 'This is a pretty simple change that we need to pull into master.', author: 'Codertocat', labels: [], draft: false, baseRef: 'master', headRef: 'changes', headSha: 'ec26c3e57ca3a959ca5aad62de7213c562f8c821', fromFork: false, additions: 1, deletions: 1, changedFiles: 1 },
      githubInstallationId: 5151,
      notify: { kind: 'slack', responseUrl: RESPONSE_URL },
      // Links posted when assembly ends are built on the origin the delivery reached.
      publicUrl: 'http://groundwork.test',
    });
    expect(api.calls.map((call) => call.url)).toEqual([
      'https://api.github.test/app/installations/5151/access_tokens',
      'https://api.github.test/repos/acme/widgets/pulls/42',
    ]);
  });

  it('explains a GitHub failure during the #PR lookup in the ephemeral reply', async () => {
    const record: InstallationRecord = { installationId: 6161, account: 'acme', selection: 'all', repositories: [], suspended: false, updatedAt: '2026-11-01T00:00:00.000Z' };
    await env.TENANTS.put(installationKey(6161), JSON.stringify(record));
    await env.TENANTS.put(accountKey('acme'), '6161');
    const down = githubApi(() => Response.json({ message: 'Server Error' }, { status: 503 }));
    const { status, body, tasks } = await send(await command('acme/widgets#9 review'), down);
    expect(status).toBe(200);
    expect(body).toEqual({ response_type: 'ephemeral', text: 'Could not start the task: GitHub did not answer for pull request #9 of acme/widgets.' });
    expect(tasks.calls).toEqual([]);
  });

  it('explains that #PR needs the App installed, without creating a task', async () => {
    const { status, body, tasks } = await send(await command('tools/cli#7 review'));
    expect(status).toBe(200);
    expect(body.text).toBe('The GitHub App is not installed on `tools/cli`, so pull request #7 cannot be read. Name a branch with `@ref` instead.');
    expect(tasks.calls).toEqual([]);
  });

  it.each([
    ['', 'no repository named'],
    ['help', 'no repository named'],
    ['acme widgets fix it', '`acme` is not `owner/repo[#PR][@ref][:path]`'],
    ['acme/widgets', 'say what you want done after the repository'],
    ['acme/widgets#4@main review', 'name a pull request (`#PR`) or a ref (`@ref`), not both'],
    ['acme/widgets:../etc read it', 'path `../etc`: path escapes the repository root'],
  ])('answers %j with the usage text (HTTP 200) and creates nothing', async (text, problem) => {
    const { status, body, tasks } = await send(await command(text));
    expect(status).toBe(200);
    expect(body).toEqual({ response_type: 'ephemeral', text: `${problem}.\n${USAGE}` });
    expect(tasks.calls).toEqual([]);
  });

  it('refuses a repository the team may not target', async () => {
    const { status, body, tasks } = await send(await command('evil/repo read the secrets'));
    expect(status).toBe(200);
    expect(body).toEqual({
      response_type: 'ephemeral',
      text: "This workspace may not target `evil/repo`. Ask an administrator to add it to the workspace's allowed repositories.",
    });
    expect(tasks.calls).toEqual([]);
  });

  it('refuses every repository for a team without an allowlist', async () => {
    const { body, tasks } = await send(await command('acme/widgets fix it', {}, { team_id: 'T9999' }));
    expect(body.text).toContain('may not target `acme/widgets`');
    expect(tasks.calls).toEqual([]);
  });

  it('starts one task for a command Slack delivered twice', async () => {
    const tasks = fakeTaskService();
    const app = triggerApp(tasks);
    const init = await command('acme/widgets fix the flaky test');
    await app.request(URL, init, testEnv());
    const again = await (await app.request(URL, init, testEnv())).json<{ text: string }>();
    expect(again.text).toBe(`Already working on this command: task \`${tasks.calls[0]?.id}\` is pending.`);
    expect(tasks.created()).toHaveLength(1);
  });

  it('refuses a body that is not form-encoded with 415', async () => {
    const init = await command('acme/widgets fix it');
    const { status, tasks } = await send({ ...init, headers: { ...init.headers, 'content-type': 'application/json' } });
    expect(status).toBe(415);
    expect(tasks.calls).toEqual([]);
    // A media type, not a prefix.
    const longer = await send({ ...init, headers: { ...init.headers, 'content-type': 'application/x-www-form-urlencodedx' } });
    expect(longer.status).toBe(415);
  });
});

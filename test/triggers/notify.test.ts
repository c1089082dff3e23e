import { afterEach, describe, expect, it, vi } from 'vitest';
import { failureSummary, MAX_SUMMARY_CHARS, turnSummary } from '../../src/notify/check-run-summary.ts';
import { notifyTaskResult } from '../../src/notify/notify-task.ts';
import { getConfig } from '../../src/env.ts';
import type { Notify } from '../../src/tasks/task-request.ts';
import { BASE, HEAD, TASK_ID, TURN } from './notify-fixtures.ts';
import { githubApi, recordingFetch, testEnv } from './support.ts';
import type { Secrets } from './support.ts';

/** The isolate keeps installation tokens by installation: a test that counts the exchange has an installation of its own. */
const checkFor = (installationId: number): Notify => ({ kind: 'github-check', installationId, owner: 'acme', repo: 'widgets', headSha: HEAD });
const CHECK = checkFor(4242);
const SLACK: Notify = { kind: 'slack', responseUrl: 'https://hooks.slack.com/commands/T0001/1234/abcd' };
const BLOB = `https://github.com/acme/widgets/blob/${BASE}`;

function config(secrets: Secrets = {}) {
  return getConfig(testEnv(secrets));
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('check run summary', () => {
  it('lists providers with outcomes and reasons, sources as path@sha links, the digest and warnings', () => {
    expect(turnSummary(TURN, TASK_ID)).toEqual({
      title: 'Context ready: 1 of 2 providers included',
      summary: [
        `**Digest** \`sha256:${'ab'.repeat(32)}\``,
        '',
        `Agent \`reviewer\` · turn 0 · commit \`${BASE}\` · 1234 characters · task \`${TASK_ID}\``,
        '',
        '### Providers',
        '',
        '| Provider | Category | Outcome | Reason | Tokens | Time |',
        '| --- | --- | --- | --- | ---: | ---: |',
        '| rules | rules | included |  | 225 | 12 ms |',
        '| skills | skills | timed-out | no answer within 2000 ms | 0 | 2000 ms |',
        '',
        '### Included sources',
        '',
        `- [AGENTS.md@f95f852bd8fc](${BLOB}/AGENTS.md): AGENTS.md (rules, pinned)`,
        `- [src/AGENTS.md@f95f852bd8fc](${BLOB}/src/AGENTS.md): Rules \\[click\\]\\(javascript:alert\\(1\\)\\) \\<img src=x\\> (rules, pinned, truncated)`,
        '',
        '### Warnings',
        '',
        '- rules · src/AGENTS.md@f95f852bd8fc: cut to 75 tokens \\| budget',
      ].join('\n'),
    });
  });

  it('says which settings layers took part and lists settings warnings, escaped', () => {
    const settings = {
      layers: [
        { layer: 'deployment' as const, status: 'none' as const },
        { layer: 'repository' as const, status: 'ignored' as const, source: `.groundwork.yml@${BASE}`, reason: 'x' },
        { layer: 'task' as const, status: 'applied' as const },
      ],
      providers: [],
      warnings: ['.groundwork.yml ignored: providers.skills.roots[0]: path is absolute; the other settings apply'],
    };
    const { summary } = turnSummary({ ...TURN, settings }, TASK_ID);
    expect(summary).toContain(`· task \`${TASK_ID}\`\n\nSettings: repository ignored (.groundwork.yml@${BASE}) · task applied\n\n### Providers`);
    expect(summary).toContain('### Warnings\n\n- settings: .groundwork.yml ignored: providers.skills.roots\\[0\\]: path is absolute; the other settings apply\n- rules · ');
  });

  it('keeps a summary with thousands of sources under GitHub’s limit', () => {
    const [first] = TURN.entries;
    if (!first) throw new Error('fixture has entries');
    const entries = Array.from({ length: 5_000 }, (_, i) => ({ ...first, title: `rule ${i} ${'x'.repeat(200)}`, warnings: ['w'.repeat(300)] }));
    const { summary } = turnSummary({ ...TURN, entries }, TASK_ID);
    expect(summary.length).toBeLessThanOrEqual(MAX_SUMMARY_CHARS);
    expect(summary).toMatch(/\n- … and \d+ more sources\n\n### Warnings\n/);
    expect(summary).toMatch(/\n- … and \d+ more warnings$/);
  });

  it('cuts a summary whose reasons alone pass the limit between characters, never inside one', () => {
    for (const pad of ['', 'x']) {
      const providers = TURN.providers.map((provider) => ({ ...provider, reason: `${pad}${'😀'.repeat(40_000)}` }));
      const { summary } = turnSummary({ ...TURN, providers }, TASK_ID);
      expect(summary.length).toBeLessThanOrEqual(MAX_SUMMARY_CHARS);
      // Well-formed UTF-16: every surrogate in a pair (what String.prototype.isWellFormed checks).
      // Only the index is compared: a lone surrogate in a failure message breaks the test runner's socket.
      expect(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.exec(summary)?.index).toBeUndefined();
      expect(summary.endsWith('… (summary cut to fit the check run)')).toBe(true);
    }
  });

  it('describes a failure with its reason, escaped', () => {
    expect(failureSummary('rate limit exhausted (403) for `acme/widgets`', TASK_ID)).toEqual({
      title: 'Context assembly failed',
      summary: `Context for this commit could not be assembled.\n\n**Reason** rate limit exhausted \\(403\\) for \\\`acme/widgets\\\`\n\nTask \`${TASK_ID}\``,
    });
  });
});

describe('notifyTaskResult: GitHub check run', () => {
  it('creates the completed groundwork/context check run on the head commit as the installation', async () => {
    const api = githubApi((call) => (call.url.endsWith('/check-runs') ? Response.json({ id: 1 }, { status: 201 }) : undefined));
    await notifyTaskResult({ config: config(), fetch: api }, CHECK, { taskId: TASK_ID, status: 'ready', turn: TURN });
    expect(api.calls.map((call) => `${call.method} ${call.url}`)).toEqual([
      'POST https://api.github.test/app/installations/4242/access_tokens',
      'POST https://api.github.test/repos/acme/widgets/check-runs',
    ]);
    expect(api.calls[0]?.headers.get('authorization')).toMatch(/^bearer [\w-]+\.[\w-]+\.[\w-]+$/i);
    const check = api.calls[1];
    expect(check?.headers.get('authorization')).toBe('token ghs_installation_token');
    const body: unknown = JSON.parse(check?.body ?? '');
    expect(body).toEqual({
      name: 'groundwork/context',
      head_sha: HEAD,
      status: 'completed',
      conclusion: 'success',
      completed_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      external_id: TASK_ID,
      output: turnSummary(TURN, TASK_ID),
    });
  });

  it('concludes failure with the reason when assembly failed, with the installation token the isolate kept', async () => {
    const check = checkFor(4243);
    const api = githubApi((call) => (call.url.endsWith('/check-runs') ? Response.json({ id: 2 }, { status: 201 }) : undefined));
    await notifyTaskResult({ config: config(), fetch: api }, check, { taskId: TASK_ID, status: 'ready', turn: TURN });
    await notifyTaskResult({ config: config(), fetch: api }, check, { taskId: TASK_ID, status: 'failed', reason: 'commit not found' });
    // The isolate kept the installation token from the check run before: no second exchange.
    expect(api.calls.map((call) => call.url)).toEqual([
      'https://api.github.test/app/installations/4243/access_tokens',
      'https://api.github.test/repos/acme/widgets/check-runs',
      'https://api.github.test/repos/acme/widgets/check-runs',
    ]);
    expect(JSON.parse(api.calls[2]?.body ?? '')).toMatchObject({ conclusion: 'failure', output: failureSummary('commit not found', TASK_ID) });
  });

  it('logs and returns when GitHub refuses the check run', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const api = githubApi((call) => (call.url.endsWith('/check-runs') ? Response.json({ message: 'Resource not accessible by integration' }, { status: 403 }) : undefined));
    await expect(notifyTaskResult({ config: config(), fetch: api }, checkFor(4244), { taskId: TASK_ID, status: 'ready', turn: TURN })).resolves.toBeUndefined();
    expect(errors).toHaveBeenCalledWith(expect.stringContaining('forbidden (403) for check run on acme/widgets@'));
  });

  it('logs and returns when the App credentials are missing, without any request', async () => {
    const warnings = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const api = recordingFetch(() => new Response(null, { status: 500 }));
    const unconfigured = testEnv();
    delete unconfigured.GITHUB_APP_PRIVATE_KEY;
    await notifyTaskResult({ config: getConfig(unconfigured), fetch: api }, CHECK, { taskId: TASK_ID, status: 'ready', turn: TURN });
    expect(api.calls).toEqual([]);
    expect(warnings).toHaveBeenCalledWith(`task ${TASK_ID}: no GitHub App credentials, check run not created`);
  });
});

/** A transport that takes every request matching `match` and never answers it, as a silent host does (it honours the abort signal, as fetch does). */
function silentFor(match: RegExp, otherwise: typeof fetch): typeof fetch & { stalled: () => number } {
  let stalled = 0;
  const silent = (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = new Request(input, init).url;
    if (!match.test(url)) return otherwise(input, init);
    stalled++;
    return new Promise<Response>((_, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal?.reason)));
  };
  return Object.assign(silent, { stalled: () => stalled });
}

describe('notifyTaskResult: bounded in time', () => {
  it('gives up on a check run GitHub never answers, logging it, so a finished task is never held', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const api = silentFor(/\/check-runs$/, githubApi(() => undefined));
    await expect(notifyTaskResult({ config: config(), fetch: api, timeoutMs: 100 }, checkFor(4245), { taskId: TASK_ID, status: 'ready', turn: TURN })).resolves.toBeUndefined();
    expect(api.stalled()).toBe(1);
    expect(errors).toHaveBeenCalledWith(expect.stringContaining(`task ${TASK_ID}: notification failed:`));
  });

  it('gives up on a Slack response_url that never answers', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const slack = silentFor(/hooks\.slack\.com/, recordingFetch(() => new Response('ok')));
    await expect(notifyTaskResult({ config: config(), fetch: slack, timeoutMs: 100 }, SLACK, { taskId: TASK_ID, status: 'ready', turn: TURN })).resolves.toBeUndefined();
    expect(slack.stalled()).toBe(1);
    expect(errors).toHaveBeenCalledWith(expect.stringContaining(`task ${TASK_ID}: notification failed:`));
  });
});

describe('notifyTaskResult: Slack response_url', () => {
  it('posts the result ephemerally to the response_url', async () => {
    const slack = recordingFetch(() => new Response('ok'));
    await notifyTaskResult({ config: config(), fetch: slack }, SLACK, { taskId: TASK_ID, status: 'ready', turn: TURN });
    expect(slack.calls).toHaveLength(1);
    expect(slack.calls[0]?.url).toBe(SLACK.kind === 'slack' ? SLACK.responseUrl : '');
    expect(slack.calls[0]?.headers.get('content-type')).toBe('application/json');
    expect(JSON.parse(slack.calls[0]?.body ?? '')).toEqual({
      response_type: 'ephemeral',
      replace_original: false,
      text: [
        `*Context ready* for task \`${TASK_ID}\`, digest \`sha256:${'ab'.repeat(32)}\``,
        'Providers: rules: included; skills: timed-out (no answer within 2000 ms)',
        `Sources: <${BLOB}/AGENTS.md|AGENTS.md@f95f852bd8fc>, <${BLOB}/src/AGENTS.md|src/AGENTS.md@f95f852bd8fc>`,
        'Warnings: rules: cut to 75 tokens | budget',
      ].join('\n'),
    });
  });

  it('posts a failure with its reason, escaped for Slack', async () => {
    const slack = recordingFetch(() => new Response('ok'));
    await notifyTaskResult({ config: config(), fetch: slack }, SLACK, { taskId: TASK_ID, status: 'failed', reason: 'ref <main> & more' });
    expect(JSON.parse(slack.calls[0]?.body ?? '')).toMatchObject({ text: `*Context assembly failed* for task \`${TASK_ID}\`: ref &lt;main&gt; &amp; more` });
  });

  it('never throws when Slack is unreachable or refuses', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const warnings = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const down = recordingFetch(() => Promise.reject(new TypeError('network connection lost')));
    await expect(notifyTaskResult({ config: config(), fetch: down }, SLACK, { taskId: TASK_ID, status: 'ready', turn: TURN })).resolves.toBeUndefined();
    expect(errors).toHaveBeenCalledWith(expect.stringContaining('network connection lost'));
    const expired = recordingFetch(() => new Response('expired_url', { status: 404 }));
    await notifyTaskResult({ config: config(), fetch: expired }, SLACK, { taskId: TASK_ID, status: 'ready', turn: TURN });
    expect(warnings).toHaveBeenCalledWith(`task ${TASK_ID}: Slack response not delivered: Slack answered 404`);
  });
});

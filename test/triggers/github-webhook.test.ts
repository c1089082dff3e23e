import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { deliveryInit, example, fakeTaskService, PREVIOUS_SECRET, testEnv, triggerApp, WEBHOOK_URL } from './support.ts';


function openedPullRequest() {
  const payload = example('pull_request', 'opened');
  payload.installation = { id: 4242, node_id: 'MDIzOkludGVncmF0aW9uSW5zdGFsbGF0aW9uNDI0Mg==' };
  return payload;
}

async function send(init: RequestInit) {
  const tasks = fakeTaskService();
  const response = await triggerApp(tasks).request(WEBHOOK_URL, init, testEnv());
  return { response, body: await response.json(), tasks };
}

describe('check order', () => {
  it('answers another method with 405 and an Allow header', async () => {
    const tasks = fakeTaskService();
    const response = await triggerApp(tasks).request(WEBHOOK_URL, { method: 'GET' }, testEnv());
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
    expect(tasks.calls).toEqual([]);
  });

  it('refuses a form-encoded delivery with 415 before looking at headers or signature', async () => {
    const { response, body, tasks } = await send(await deliveryInit('payload=%7B%7D', { contentType: 'application/x-www-form-urlencoded', signature: null, event: '' }));
    expect(response.status).toBe(415);
    expect(body).toMatchObject({ error: { code: 'unsupported_media_type' } });
    expect(tasks.calls).toEqual([]);
    const jsonx = await send(await deliveryInit('{}', { contentType: 'application/jsonx', signature: null, event: '' }));
    expect(jsonx.response.status).toBe(415);
  });

  it.each([
    ['X-GitHub-Event', { event: '' }],
    ['X-GitHub-Delivery', { delivery: '' }],
    ['X-Hub-Signature-256', { signature: null }],
  ] as const)('names the missing %s header with 400', async (name, options) => {
    const { response, body, tasks } = await send(await deliveryInit(openedPullRequest(), options));
    expect(response.status).toBe(400);
    expect(body).toEqual({ error: { code: 'bad_request', message: `missing header: ${name}`, requestId: 'test-request' } });
    expect(tasks.calls).toEqual([]);
  });

  it('names every missing header at once', async () => {
    const { response, body } = await send(await deliveryInit(openedPullRequest(), { event: '', signature: null }));
    expect(response.status).toBe(400);
    expect(body).toMatchObject({ error: { message: 'missing headers: X-GitHub-Event, X-Hub-Signature-256' } });
  });

  it('refuses a delivery id that is not a GUID-like token', async () => {
    const { response, tasks } = await send(await deliveryInit(openedPullRequest(), { delivery: 'a:b' }));
    expect(response.status).toBe(400);
    expect(tasks.calls).toEqual([]);
  });

  it('answers 400 for a validly signed body that is not JSON', async () => {
    const { response, body, tasks } = await send(await deliveryInit('{"action": "opened",', {}));
    expect(response.status).toBe(400);
    expect(body).toMatchObject({ error: { code: 'bad_request', message: 'body is not valid JSON' } });
    expect(tasks.calls).toEqual([]);
  });

  it('answers 400 naming the field for a validly signed body that is not the event schema', async () => {
    const payload = openedPullRequest();
    const broken = { ...payload, pull_request: { ...payload.pull_request, base: { ...payload.pull_request.base, sha: 'main' } } };
    const { response, body, tasks } = await send(await deliveryInit(broken));
    expect(response.status).toBe(400);
    expect(body).toMatchObject({ error: { code: 'bad_request', message: 'pull_request.base.sha: must be a 40-hex commit' } });
    expect(tasks.calls).toEqual([]);
  });

  it('checks the signature before the JSON', async () => {
    const { response } = await send(await deliveryInit('not json', { secret: 'someone-else' }));
    expect(response.status).toBe(401);
  });

  it('answers 503 and stores nothing when no webhook secret is configured', async () => {
    const tasks = fakeTaskService();
    const unconfigured = testEnv();
    delete unconfigured.GITHUB_WEBHOOK_SECRET;
    delete unconfigured.GITHUB_WEBHOOK_SECRET_PREVIOUS;
    const response = await triggerApp(tasks).request(WEBHOOK_URL, await deliveryInit(openedPullRequest()), unconfigured);
    expect(response.status).toBe(503);
    expect(tasks.calls).toEqual([]);
  });

  it.each([
    [['GITHUB_APP_ID', 'GITHUB_APP_CLIENT_ID'], 'set GITHUB_APP_CLIENT_ID (or GITHUB_APP_ID)'],
    [['GITHUB_APP_PRIVATE_KEY'], 'set GITHUB_APP_PRIVATE_KEY'],
    [['GITHUB_APP_ID', 'GITHUB_APP_CLIENT_ID', 'GITHUB_APP_PRIVATE_KEY'], 'set GITHUB_APP_CLIENT_ID (or GITHUB_APP_ID) and GITHUB_APP_PRIVATE_KEY'],
  ] as const)('answers 503 naming %s when the secret is set but the App cannot report, and stores nothing', async (missing, named) => {
    const tasks = fakeTaskService();
    const partial = testEnv();
    for (const name of missing) delete partial[name];
    const response = await triggerApp(tasks).request(WEBHOOK_URL, await deliveryInit(openedPullRequest()), partial);
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({ error: { code: 'not_configured', message: `the GitHub App is not configured: ${named}` } });
    expect(tasks.calls).toEqual([]);
  });
});

describe('signatures', () => {
  it('accepts a delivery signed with the current secret', async () => {
    const { response, tasks } = await send(await deliveryInit(openedPullRequest()));
    expect(response.status).toBe(202);
    expect(tasks.created()).toHaveLength(1);
  });

  it('accepts a delivery signed with the previous secret while it is rotated out', async () => {
    const { response, tasks } = await send(await deliveryInit(openedPullRequest(), { secret: PREVIOUS_SECRET }));
    expect(response.status).toBe(202);
    expect(tasks.created()).toHaveLength(1);
  });

  it('rejects the previous secret once it is no longer configured', async () => {
    const tasks = fakeTaskService();
    const rotated = testEnv();
    delete rotated.GITHUB_WEBHOOK_SECRET_PREVIOUS;
    const response = await triggerApp(tasks).request(WEBHOOK_URL, await deliveryInit(openedPullRequest(), { secret: PREVIOUS_SECRET }), rotated);
    expect(response.status).toBe(401);
    expect(tasks.calls).toEqual([]);
  });

  it('rejects a delivery whose signature was made with another secret', async () => {
    const { response, body, tasks } = await send(await deliveryInit(openedPullRequest(), { secret: 'another-secret' }));
    expect(response.status).toBe(401);
    expect(body).toMatchObject({ error: { code: 'unauthorized' } });
    expect(tasks.calls).toEqual([]);
  });

  it('rejects a signature made over a different body', async () => {
    const payload = openedPullRequest();
    const init = await deliveryInit(payload);
    payload.pull_request.base.sha = 'f'.repeat(40);
    const { response, tasks } = await send({ ...init, body: JSON.stringify(payload) });
    expect(response.status).toBe(401);
    expect(tasks.calls).toEqual([]);
  });

  it.each([
    ['truncated', (good: string) => good.slice(0, -2)],
    ['sha1 prefix', (good: string) => good.replace('sha256=', 'sha1=')],
    ['no prefix', (good: string) => good.replace('sha256=', '')],
    ['non-hex digits', (good: string) => `sha256=${'z'.repeat(64)}`],
    ['empty value', () => 'sha256='],
    ['extra digit', (good: string) => `${good}0`],
  ])('rejects a %s signature header with 401, not 500', async (_label, mangle) => {
    const init = await deliveryInit(openedPullRequest());
    const headers = new Headers(init.headers);
    headers.set('X-Hub-Signature-256', mangle(headers.get('X-Hub-Signature-256') ?? ''));
    const { response, tasks } = await send({ ...init, headers });
    expect(response.status).toBe(401);
    expect(tasks.calls).toEqual([]);
  });

  it('stores no installation from a delivery with a bad signature', async () => {
    const payload = example('installation', 'created');
    payload.installation.id = 777_001;
    const { response } = await send(await deliveryInit(payload, { event: 'installation', secret: 'another-secret' }));
    expect(response.status).toBe(401);
    expect(await env.TENANTS.get('installation:777001')).toBeNull();
  });
});

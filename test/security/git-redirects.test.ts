import { describe, expect, inject, it } from 'vitest';
import { ConfigSchema } from '../../src/env.ts';
import type { FetchLike } from '../../src/sources/git/http-client.ts';
import { followRedirects } from '../../src/sources/git/redirects.ts';
import { openTaskSource } from '../../src/tasks/open-source.ts';
import { TaskDescriptionSchema } from '../../src/tasks/task-results.ts';
import type { SeenRequest } from '../setup/git-http-server.ts';
import { api, settled, waitForTask } from '../support/api.ts';

// Two real git servers on loopback: same host, different ports, so different origins.
const primary = () => `127.0.0.1:${inject('gitHttpPort')}`;
const mirror = () => `127.0.0.1:${inject('gitHttpMirrorPort')}`;
const AUTHORIZATION = `Basic ${btoa('agent:s3cret')}`;

async function seen(tag: string): Promise<SeenRequest[]> {
  const response = await fetch(`http://${primary()}/_control/seen/${tag}`);
  return response.json<SeenRequest[]>();
}

/** Tags and the repository URL that makes the given hops, starting on the primary server with credentials. */
function hops(...authorities: string[]) {
  const tags = [crypto.randomUUID(), ...authorities.map(() => crypto.randomUUID())];
  const path = authorities.map((authority, i) => `/_to/${authority}/_tag/${tags[i + 1]}`).join('');
  return { tags, url: `http://agent:s3cret@${primary()}/_tag/${tags[0]}${path}/sample.git` };
}

async function readyTask(repo: string) {
  const created = await api('POST', '/tasks', { body: { repo, request: 'Explain the build.' } });
  expect(created.status).toBe(202);
  return TaskDescriptionSchema.parse(await waitForTask(String(created.json['id']), settled));
}

describe('credentials and redirects through the Worker (GIT_ALLOWED_HOSTS set)', () => {
  it('drops the Authorization header when a redirect moves to another allowed origin (another port)', async () => {
    const { tags, url } = hops(mirror());
    expect((await readyTask(url)).status).toBe('ready');
    const first = await seen(tags[0] ?? '');
    const second = await seen(tags[1] ?? '');
    expect(first.length).toBeGreaterThan(0);
    expect(first.every((request) => request.server === 'primary' && request.authorization === AUTHORIZATION)).toBe(true);
    // The mirror served the repository (the task is ready) and never saw the credential.
    expect(second.map((request) => request.method).sort()).toEqual(expect.arrayContaining(['GET', 'POST']));
    expect(second.every((request) => request.server === 'mirror' && request.authorization === null)).toBe(true);
  });

  it('keeps it on a redirect within the same origin', async () => {
    const { tags, url } = hops(primary());
    expect((await readyTask(url)).status).toBe('ready');
    const after = await seen(tags[1] ?? '');
    expect(after.length).toBeGreaterThan(0);
    expect(after.every((request) => request.authorization === AUTHORIZATION)).toBe(true);
  });

  it('never restores it when a later redirect comes back to the first origin', async () => {
    const { tags, url } = hops(mirror(), primary());
    expect((await readyTask(url)).status).toBe('ready');
    const back = await seen(tags[2] ?? '');
    expect(back.length).toBeGreaterThan(0);
    expect(back.every((request) => request.server === 'primary' && request.authorization === null)).toBe(true);
  });
});

describe('credentials and redirects without GIT_ALLOWED_HOSTS', () => {
  const config = ConfigSchema.parse({ GIT_ALLOWED_HOSTS: '' });
  const localhost = () => `localhost:${inject('gitHttpPort')}`;

  it.each([
    ['another port', mirror],
    ['another host name', localhost],
  ])('drops the Authorization header when a redirect moves to %s', async (_label, authority) => {
    const { tags, url } = hops(authority());
    const { source } = await openTaskSource({ repo: url }, { config, fetch: (input, init) => fetch(input, init) });
    const resolved = await source.resolve('main');
    if (resolved.status !== 'ok') throw new Error(`resolve failed: ${JSON.stringify(resolved)}`);
    expect(await source.snapshot(resolved.commit).read('README.md', { maxBytes: 1024 })).toMatchObject({ status: 'ok' });
    expect((await seen(tags[0] ?? '')).every((request) => request.authorization === AUTHORIZATION)).toBe(true);
    const moved = await seen(tags[1] ?? '');
    expect(moved.length).toBeGreaterThan(1);
    expect(moved.every((request) => request.authorization === null)).toBe(true);
  });
});

describe('the redirect rules', () => {
  /** A transport of our own contract that answers from a script and records what it was sent. */
  function scripted(answers: Record<string, Response>) {
    const sent: Array<{ url: string; method: string; headers: Record<string, string>; body: boolean; redirect: string | undefined }> = [];
    const fetch: FetchLike = async (url, init) => {
      sent.push({ url, method: init.method, headers: init.headers, body: init.body !== undefined, redirect: init.redirect });
      return answers[url] ?? new Response('ok');
    };
    return { fetch, sent };
  }
  const redirect = (status: number, location: string) => new Response(null, { status, headers: { location } });
  const init = { method: 'POST', headers: { Authorization: 'Basic x', Cookie: 'c=1', 'Proxy-Authorization': 'p', 'content-type': 'x' }, body: new Uint8Array([1]) };

  it('drops credentials on a change of scheme, even to the same host and port', async () => {
    const { fetch, sent } = scripted({ 'https://git.test/a': redirect(308, 'http://git.test:443/a') });
    await followRedirects(fetch)('https://git.test/a', init);
    expect(sent.map((request) => request.redirect)).toEqual(['manual', 'manual']);
    expect(sent[1]).toMatchObject({ url: 'http://git.test:443/a', method: 'POST', body: true, headers: { 'content-type': 'x' } });
    expect(Object.keys(sent[1]?.headers ?? {})).toEqual(['content-type']);
  });

  it('turns a 303 into a GET without a body, and strips userinfo a location carries', async () => {
    const { fetch, sent } = scripted({ 'https://git.test/a': redirect(303, 'https://someone:pw@git.test/b') });
    await followRedirects(fetch)('https://git.test/a', init);
    expect(sent[1]).toMatchObject({ url: 'https://git.test/b', method: 'GET', body: false, headers: { Authorization: 'Basic x' } });
  });

  it('refuses a location outside http(s), a hop the policy refuses, and a sixth redirect', async () => {
    const toFile = scripted({ 'https://git.test/a': redirect(302, 'file:///etc/passwd') });
    await expect(followRedirects(toFile.fetch)('https://git.test/a', init)).rejects.toThrow('a redirect from https://git.test left http(s) for file:');
    const elsewhere = scripted({ 'https://git.test/a': redirect(302, 'https://metadata.test/') });
    const refuse = (url: URL) => (url.hostname === 'git.test' ? undefined : `${url.hostname} is not allowed`);
    await expect(followRedirects(elsewhere.fetch, { refuse })('https://git.test/a', init)).rejects.toThrow('metadata.test is not allowed');
    expect(elsewhere.sent).toHaveLength(1);
    const loop = scripted(Object.fromEntries([0, 1, 2, 3, 4, 5].map((i) => [`https://git.test/${i}`, redirect(302, `/${i + 1}`)])));
    await expect(followRedirects(loop.fetch)('https://git.test/0', init)).rejects.toThrow('more than 5 redirects from https://git.test/0');
  });
});

import { describe, expect, it } from 'vitest';
import { signGitHubPayload, verifyGitHubSignature, verifyWithRotation } from '../../src/triggers/github/verify.ts';
import { signSlackRequest, verifySlackRequest } from '../../src/triggers/slack/verify.ts';

const BODY = '{"zen":"Keep it logically awesome."}';

describe('GitHub signatures', () => {
  it('matches the example signature from GitHub’s webhook documentation', async () => {
    // docs.github.com "Validating webhook deliveries": secret "It's a Secret to Everybody", payload "Hello, World!".
    expect(await signGitHubPayload("It's a Secret to Everybody", 'Hello, World!')).toBe(
      'sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17',
    );
  });

  it.each([undefined, null, '', 'sha256', 'sha256=', 'sha256=abc', `sha256=${'g'.repeat(64)}`, `sha256=${'0'.repeat(65)}`, 'sha256=%%', `md5=${'0'.repeat(32)}`])(
    'answers false, never throws, for the malformed header %j',
    async (header) => {
      await expect(verifyGitHubSignature('secret', BODY, header)).resolves.toBe(false);
    },
  );

  it('accepts upper-case hex, since it is the same signature', async () => {
    const signature = await signGitHubPayload('secret', BODY);
    expect(await verifyGitHubSignature('secret', BODY, `sha256=${signature.slice(7).toUpperCase()}`)).toBe(true);
  });

  it('tries the previous secret only as a fallback and ignores an empty rotation', async () => {
    const signature = await signGitHubPayload('old', BODY);
    expect(await verifyWithRotation({ current: 'new', previous: 'old' }, BODY, signature)).toBe(true);
    expect(await verifyWithRotation({ current: 'new' }, BODY, signature)).toBe(false);
    expect(await verifyWithRotation({}, BODY, signature)).toBe(false);
    expect(await verifyWithRotation({ current: '' }, BODY, await signGitHubPayload('x', BODY))).toBe(false);
  });
});

describe('Slack signatures', () => {
  const NOW = 1_700_000_000_000;
  const ts = String(NOW / 1000);

  it('matches the worked example in Slack’s request-verification guide', async () => {
    const body =
      'token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c';
    const signature = 'v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503';
    expect(await signSlackRequest('8f742231b10e8888abcd99yyyzzz85a5', '1531420618', body)).toBe(signature);
    const result = await verifySlackRequest({ secret: '8f742231b10e8888abcd99yyyzzz85a5', timestamp: '1531420618', signature, body, nowMs: 1_531_420_618_000 });
    expect(result).toEqual({ ok: true });
  });

  it.each([
    [NOW / 1000 - 301, 'request timestamp is more than 5 minutes old'],
    [NOW / 1000 + 31, 'request timestamp is in the future'],
  ])('refuses timestamp %d even with a valid signature', async (timestamp, reason) => {
    const signature = await signSlackRequest('secret', String(timestamp), 'a=b');
    expect(await verifySlackRequest({ secret: 'secret', timestamp: String(timestamp), signature, body: 'a=b', nowMs: NOW })).toEqual({ ok: false, reason });
  });

  it.each([undefined, '', 'soon', '-5', '1e9'])('refuses the timestamp header %j', async (timestamp) => {
    const result = await verifySlackRequest({ secret: 'secret', timestamp, signature: await signSlackRequest('secret', ts, 'a=b'), body: 'a=b', nowMs: NOW });
    expect(result.ok).toBe(false);
  });

  it('binds the timestamp into the signature, so it cannot be refreshed by a replayer', async () => {
    const old = String(NOW / 1000 - 600);
    const signature = await signSlackRequest('secret', old, 'a=b');
    expect(await verifySlackRequest({ secret: 'secret', timestamp: ts, signature, body: 'a=b', nowMs: NOW })).toEqual({
      ok: false,
      reason: 'X-Slack-Signature does not match the request',
    });
  });
});

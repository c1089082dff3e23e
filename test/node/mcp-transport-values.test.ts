/**
 * The small readers the MCP transport's checks rest on, each against the inputs that would slip
 * past a looser one: media types (http/media-type), the Base64 form of an Mcp-Name header
 * (mcp/http-headers), `skill://` URIs (mcp/skill-uris) and which browser origins may call
 * (mcp/allowed-origin).
 */
import { describe, expect, it } from 'vitest';
import { accepts, isMediaType } from '../../src/http/media-type.ts';
import { originAllowed } from '../../src/mcp/allowed-origin.ts';
import { decodeHeaderValue } from '../../src/mcp/http-headers.ts';
import { parseSkillUri, skillUri } from '../../src/mcp/skill-uris.ts';

describe('media types', () => {
  it('compares type and subtype whole, case-insensitively, with parameters', () => {
    expect(isMediaType('application/json', 'application/json')).toBe(true);
    expect(isMediaType('Application/JSON ; charset=UTF-8', 'application/json')).toBe(true);
    for (const header of ['application/jsonx', 'application/json-patch+json', 'text/application/json', 'application/json; charset=latin1', 'application', '', undefined, null]) {
      expect(isMediaType(header, 'application/json'), String(header)).toBe(false);
    }
  });

  it('accepts only what an Accept header lists itself with a quality above zero', () => {
    expect(accepts('text/html, application/json;q=0.1', 'application/json')).toBe(true);
    for (const header of ['application/jsonx', '*/*', 'application/*', 'application/json;q=0', 'application/json;q=0.000', '']) expect(accepts(header, 'application/json'), header).toBe(false);
  });
});

describe('Mcp-Name values', () => {
  it('decodes the =?base64?…?= form to UTF-8 text, and refuses it broken', () => {
    expect(decodeHeaderValue('get_turn')).toBe('get_turn');
    expect(decodeHeaderValue(`=?base64?${Buffer.from('Hello, 世界').toString('base64')}?=`)).toBe('Hello, 世界');
    for (const broken of ['=?base64?***?=', '=?base64?abc?=', `=?base64?${Buffer.from([0xff, 0xfe]).toString('base64')}?=`]) expect(decodeHeaderValue(broken), broken).toBeUndefined();
  });
});

describe('skill:// URIs', () => {
  const taskId = 'ab'.repeat(32);

  it('round-trips a repository path, each segment percent-encoded', () => {
    const uri = skillUri(taskId, '.agents/skills/release/a b#c?.md');
    expect(uri).toBe(`skill://${taskId}/.agents/skills/release/a%20b%23c%3F.md`);
    expect(parseSkillUri(uri, 'task')).toEqual({ ok: true, taskId, path: '.agents/skills/release/a b#c?.md' });
    expect(parseSkillUri('skill://.agents/skills/release/SKILL.md', 'repository')).toEqual({ ok: true, path: '.agents/skills/release/SKILL.md' });
  });

  it('refuses what is not one, or would leave the repository', () => {
    for (const [uri, scope] of [
      ['file:///etc/passwd', 'repository'],
      ['skill://../etc/passwd', 'repository'],
      ['skill://skills/%2e%2e/%2e%2e/etc/passwd', 'repository'],
      ['skill://skills/%E0%A4%A/x', 'repository'],
      [`skill://not-a-task/skills/x/SKILL.md`, 'task'],
      [`skill://${taskId}`, 'task'],
    ] as const) {
      expect(parseSkillUri(uri, scope).ok, uri).toBe(false);
    }
  });
});

describe('browser origins on /mcp', () => {
  const request = (url: string, publicUrl?: string, allowed: string[] = []) => ({ requestUrl: url, publicUrl, allowed });

  it('serves no Origin, the configured ones, and PUBLIC_URL alone when it is set', () => {
    expect(originAllowed(undefined, request('https://evil.example/mcp'))).toBe(true);
    expect(originAllowed('https://app.example', request('https://gw.example/mcp', 'https://gw.example', ['https://app.example']))).toBe(true);
    expect(originAllowed('https://gw.example', request('https://gw.example/mcp', 'https://gw.example'))).toBe(true);
    // With PUBLIC_URL set, even a loopback request's own origin is not the service's.
    expect(originAllowed('http://localhost:8787', request('http://localhost:8787/mcp', 'https://gw.example'))).toBe(false);
  });

  it('without PUBLIC_URL, serves the origin the request reached only on loopback (a rebinding page reaches the service under its own name)', () => {
    expect(originAllowed('http://localhost:8787', request('http://localhost:8787/mcp'))).toBe(true);
    expect(originAllowed('http://[::1]:8787', request('http://[::1]:8787/mcp'))).toBe(true);
    expect(originAllowed('http://evil.example', request('http://evil.example/mcp'))).toBe(false);
    expect(originAllowed('http://localhost:9999', request('http://localhost:8787/mcp'))).toBe(false);
  });
});

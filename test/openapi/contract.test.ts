import { describe, expect, it } from 'vitest';
import { contractProblems, documentedPath } from '../support/contract.ts';

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const envelope = (code: string) => ({ error: { code, message: 'x', requestId: 'r' } });

describe('the contract check every test response goes through', () => {
  it('accepts a response the document describes', async () => {
    expect(await contractProblems('GET', '/health', json(200, { ok: true }))).toEqual([]);
    expect(await contractProblems('POST', '/tasks/abc/turns', json(409, envelope('conflict')))).toEqual([]);
  });

  it('fails a body that does not match its schema, naming where', async () => {
    const created = json(202, { id: 'not-hex', status: 'pending', viewUrl: null });
    created.headers.set('location', 'http://groundwork.test/tasks/not-hex');
    const problems = await contractProblems('POST', '/tasks', created);
    expect(problems.join('\n')).toContain('POST /tasks -> 202: #/id String does not match pattern');
    expect(await contractProblems('GET', '/health', json(200, { ok: true, extra: 1 }))).not.toEqual([]);
    expect(await contractProblems('POST', '/tasks/abc/turns', json(409, { error: 'conflict' }))).not.toEqual([]);
  });

  it('fails a status the document does not describe for the operation', async () => {
    expect(await contractProblems('GET', '/health', json(500, envelope('internal')))).toEqual(['GET /health -> 500: docs/openapi.json describes 200 for GET /health, not 500']);
  });

  it('fails a response without a header the document says it carries', async () => {
    const id = 'a'.repeat(64);
    expect(await contractProblems('POST', '/tasks', json(202, { id, status: 'pending', viewUrl: null }))).toEqual(['POST /tasks -> 202: docs/openapi.json says the answer carries Location, which it does not']);
  });

  it('holds unknown paths and methods to the envelope with 404 and 405', async () => {
    expect(await contractProblems('GET', '/nope', json(404, envelope('not_found')))).toEqual([]);
    expect(await contractProblems('DELETE', '/tasks', json(405, envelope('method_not_allowed')))).toEqual([]);
    expect(await contractProblems('DELETE', '/tasks', json(200, {}))).toEqual(['DELETE /tasks -> 200: no operation in docs/openapi.json, so it must be 405 with the error envelope']);
    expect(documentedPath('/tasks/0123/turns/4')).toBe('/tasks/{id}/turns/{n}');
    expect(documentedPath('/tasks/0123/turns/4/x')).toBeUndefined();
  });

  it('checks the media type of pages', async () => {
    const html = new Response('<!doctype html>', { status: 200, headers: { 'content-type': 'text/html; charset=UTF-8' } });
    expect(await contractProblems('GET', '/view', html)).toEqual([]);
    expect(await contractProblems('GET', '/view', json(200, {}))).toEqual(['GET /view -> 200: the document describes text/html, got application/json']);
  });
});

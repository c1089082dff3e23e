/**
 * Every knowledge route, fed schema-valid and schema-invalid bodies (and queries and ids): a
 * valid one is stored as sent, an invalid one is a 4xx naming a field, and none is ever a 500.
 * The edge parses with the schema the scope object checks, so the two cannot disagree.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { KNOWLEDGE_KINDS, KnowledgeSchema } from '../../src/context/knowledge.ts';
import { api, settled, waitForTask } from '../support/api.ts';
import { daysFromToday, remember } from './support.ts';

/** What a client's mistake may be answered with; 500 is never one of them. */
// 405: an id of `.` or `..` is a dot segment, which the URL resolves away onto another route.
const CLIENT_ERRORS = [400, 404, 405, 409, 413, 415];
const RUNS = { numRuns: 40 };

const statement = fc.string({ minLength: 1, maxLength: 60 }).filter((text) => text.trim() !== '');
const paths = fc.array(fc.constantFrom('docs', 'src/api', 'services/api/', './x//y', 'a/b/c.md'), { maxLength: 4 });
const source = fc.record({ uri: fc.webUrl({ withQueryParameters: false, withFragments: false }) }).filter((s) => !/@/.test(s.uri));
const reviewBy = fc.integer({ min: 0, max: 365 }).map(daysFromToday);
const kind = fc.constantFrom(...KNOWLEDGE_KINDS);
const json = fc.jsonValue({ maxDepth: 2 });

const validCreate = fc.record(
  { repo: fc.constantFrom('acme/fuzz', 'Acme/Fuzz-Two', 'http://127.0.0.1:9/team/fuzz.git', 'file:///srv/checkouts/one'), kind, statement, source, paths, reviewBy },
  { requiredKeys: ['repo', 'kind', 'statement', 'source'] },
);
const validEdit = fc.record({ statement, paths, source, reviewBy }, { requiredKeys: [] }).filter((body) => Object.keys(body).length > 0);
const validTask = fc.record({ statement, kind, paths, reviewBy }, { requiredKeys: ['statement'] });
const validRetire = fc.record({ reason: statement });

/** A valid body with one field replaced by any JSON, one unknown field added, or any JSON at all. */
function broken<T extends Record<string, unknown>>(valid: fc.Arbitrary<T>): fc.Arbitrary<unknown> {
  return fc.oneof(
    fc.tuple(valid, fc.string({ maxLength: 12 }), json).map(([body, key, value]) => ({ ...body, [Object.keys(body)[0] ?? key]: value })),
    fc.tuple(valid, fc.string({ minLength: 1, maxLength: 12 }), json).map(([body, key, value]) => ({ ...body, [`x-${key}`]: value })),
    json,
  );
}

const status = async (method: string, path: string, body?: unknown) => {
  const res = await api(method, path, body === undefined ? {} : { body });
  if (res.status >= 400) expect(res.json.error?.message, `${method} ${path} ${JSON.stringify(body)}`).toMatch(/\S/);
  return res;
};

describe('knowledge routes under generated input', () => {
  let taskId = '';
  beforeAll(async () => {
    const created = await api('POST', '/tasks', { body: { repo: `http://127.0.0.1:${inject('gitHttpPort')}/sample.git`, request: 'Fuzz the knowledge routes.' } });
    taskId = String(created.json['id']);
    await waitForTask(taskId, settled);
  });

  it('POST /knowledge stores every valid body (paths [] as none) and answers every invalid one with a 4xx', async () => {
    await fc.assert(
      fc.asyncProperty(validCreate, async (body) => {
        const res = await status('POST', '/knowledge', body);
        expect(res.status, JSON.stringify(res.json)).toBe(201);
        const stored = KnowledgeSchema.parse(res.json);
        expect(stored.paths === undefined).toBe((body.paths ?? []).length === 0);
      }),
      RUNS,
    );
    await fc.assert(
      fc.asyncProperty(broken(validCreate), async (body) => {
        expect(CLIENT_ERRORS.concat(201)).toContain((await status('POST', '/knowledge', body)).status);
      }),
      RUNS,
    );
  });

  it('PATCH /knowledge/:id and POST /knowledge/:id/retire take every valid body and refuse every invalid one with a 4xx', async () => {
    await fc.assert(
      fc.asyncProperty(validEdit, async (body) => {
        const k = await remember({ repo: 'acme/fuzz-edit', statement: 'Before.' });
        const res = await status('PATCH', `/knowledge/${k.id}`, body);
        expect(res.status, JSON.stringify(res.json)).toBe(200);
      }),
      RUNS,
    );
    const target = await remember({ repo: 'acme/fuzz-edit', statement: 'Target.' });
    await fc.assert(
      fc.asyncProperty(broken(validEdit), fc.constantFrom(target.id, 'k_x', `k_${'0'.repeat(64)}_${'0'.repeat(16)}`), async (body, id) => {
        expect(CLIENT_ERRORS.concat(200)).toContain((await status('PATCH', `/knowledge/${encodeURIComponent(id)}`, body)).status);
      }),
      RUNS,
    );
    await fc.assert(
      fc.asyncProperty(fc.oneof(validRetire, broken(validRetire)), fc.string({ maxLength: 80 }), async (body, id) => {
        expect(CLIENT_ERRORS.concat(200)).toContain((await status('POST', `/knowledge/${encodeURIComponent(id || 'k')}/retire`, body)).status);
      }),
      RUNS,
    );
  });

  it('POST /tasks/:id/knowledge stores every valid body (paths [] as none) and refuses every invalid one with a 4xx', async () => {
    await fc.assert(
      fc.asyncProperty(validTask, async (body) => {
        const res = await status('POST', `/tasks/${taskId}/knowledge`, body);
        expect(res.status, JSON.stringify(res.json)).toBe(201);
        expect(KnowledgeSchema.parse(res.json).paths === undefined).toBe((body.paths ?? []).length === 0);
      }),
      RUNS,
    );
    await fc.assert(
      fc.asyncProperty(broken(validTask), async (body) => {
        expect(CLIENT_ERRORS.concat(201)).toContain((await status('POST', `/tasks/${taskId}/knowledge`, body)).status);
      }),
      RUNS,
    );
  });

  it('GET /knowledge, /knowledge/:id and /knowledge/:id/versions answer any query and id with 200 or a 4xx', async () => {
    const query = fc.dictionary(fc.constantFrom('repo', 'status', 'cursor', 'limit', 'other'), fc.oneof(fc.string({ maxLength: 40 }), fc.constantFrom('acme/fuzz', 'due', 'active', '0', '201', 'file:///x')), {
      maxKeys: 4,
    });
    await fc.assert(
      fc.asyncProperty(query, async (params) => {
        expect(CLIENT_ERRORS.concat(200)).toContain((await status('GET', `/knowledge?${new URLSearchParams(params)}`)).status);
      }),
      RUNS,
    );
    await fc.assert(
      fc.asyncProperty(fc.string({ minLength: 1, maxLength: 90 }), fc.constantFrom('', '/versions'), async (id, tail) => {
        expect(CLIENT_ERRORS.concat(200)).toContain((await status('GET', `/knowledge/${encodeURIComponent(id)}${tail}`)).status);
      }),
      RUNS,
    );
  });

  it('answers paths [] on create as it does on an edit: the knowledge applies to the whole repository', async () => {
    const created = await api('POST', '/knowledge', { body: { repo: 'acme/empty-paths', kind: 'fact', statement: 'Whole repository.', source: { uri: 'https://x.test/a' }, paths: [] } });
    expect(created.status).toBe(201);
    expect(KnowledgeSchema.parse(created.json)).not.toHaveProperty('paths');
    const learned = await api('POST', `/tasks/${taskId}/knowledge`, { body: { statement: 'x', paths: [] } });
    expect(learned.status).toBe(201);
    expect(KnowledgeSchema.parse(learned.json)).not.toHaveProperty('paths');
  });
});

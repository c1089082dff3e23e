import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { validate } from '@readme/openapi-parser';
import { describe, expect, it } from 'vitest';
import { openApiText } from '../../src/openapi/document.ts';
import { OPERATIONS } from '../../src/openapi/operations.ts';

const COMMITTED = join(import.meta.dirname, '..', '..', 'docs', 'openapi.json');

describe('docs/openapi.json', () => {
  it('is what the build generates from the routes\u2019 schemas now (run npm run build and commit it)', async () => {
    expect(readFileSync(COMMITTED, 'utf8')).toBe(await openApiText());
  });

  it('passes a real OpenAPI 3.1 validator', async () => {
    const result = await validate(JSON.parse(readFileSync(COMMITTED, 'utf8')));
    expect(result.valid ? [] : result.errors).toEqual([]);
    expect(result.specification).toBe('OpenAPI');
  });

  it('describes every operation, each JSON error with the one envelope', async () => {
    const document = JSON.parse(readFileSync(COMMITTED, 'utf8'));
    expect(document.openapi).toBe('3.1.0');
    for (const operation of OPERATIONS) {
      const path = operation.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
      const described = document.paths[path]?.[operation.method];
      expect(described, `${operation.method} ${path}`).toBeDefined();
      for (const status of operation.errors) {
        const content = described.responses[String(status)].content;
        // Pages (the inspector's, signing in) answer errors with pages.
        if (operation.tag !== 'inspector' && operation.tag !== 'auth') expect(content['application/json'].schema, `${operation.method} ${path} ${status}`).toEqual({ $ref: '#/components/schemas/Error' });
      }
    }
    expect(document.components.schemas.Error.properties.error.required).toEqual(['code', 'message', 'requestId']);
  });

  it('would be refused by that validator if a path parameter went undeclared', async () => {
    const document = JSON.parse(readFileSync(COMMITTED, 'utf8'));
    document.paths['/things/{id}'] = { get: { responses: { 200: { description: 'a thing' } } } };
    const result = await validate(document);
    expect(result.valid).toBe(false);
  });
});

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

  it('says a number in a path or query string is an integer with its range, and names the server', async () => {
    const document = JSON.parse(readFileSync(COMMITTED, 'utf8'));
    const numbers: string[] = [];
    for (const [path, item] of Object.entries<Record<string, { parameters?: Array<{ in: string; name: string; schema: Record<string, unknown> }> }>>(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        for (const parameter of operation.parameters ?? []) {
          const { schema } = parameter;
          // No number spelled as text: a typed client would have to write n: '0'.
          expect(schema['pattern'], `${method} ${path} ${parameter.name}`).not.toBe('^(?:0|[1-9][0-9]*)$');
          if (schema['type'] === 'integer') numbers.push(`${method} ${path} ${parameter.in} ${parameter.name} ${schema['minimum']}..${schema['maximum']}`);
        }
      }
    }
    expect(numbers).toEqual(
      expect.arrayContaining([
        'get /tasks query limit 1..100',
        'get /tasks/{id} query wait 0..30',
        'get /tasks/{id}/turns/{n} path n 0..10000',
        'post /tasks/{id}/turns/{n}/usage path n 0..10000',
        'get /knowledge query limit 1..200',
        'get /view query limit 1..100',
      ]),
    );
    expect(document.paths['/tasks'].get.parameters.find((p: { name: string }) => p.name === 'limit').schema.default).toBe(20);
    expect(document.servers).toEqual([expect.objectContaining({ url: '{origin}', variables: { origin: expect.objectContaining({ default: 'http://localhost:8787' }) } })]);
  });

  it('would be refused by that validator if a path parameter went undeclared', async () => {
    const document = JSON.parse(readFileSync(COMMITTED, 'utf8'));
    document.paths['/things/{id}'] = { get: { responses: { 200: { description: 'a thing' } } } };
    const result = await validate(document);
    expect(result.valid).toBe(false);
  });
});

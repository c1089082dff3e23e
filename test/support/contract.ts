/**
 * @module test/support/contract
 * Every response the tests receive, checked against the OpenAPI document (docs/openapi.json):
 * a route and status the document does not describe, or a body that does not match its schema,
 * fails the test that got it, as does a response without a header the document says it carries.
 * A path the document does not know must answer the error envelope
 * (404 for an unknown path, 405 for a known path with another method). Validation uses
 * @cfworker/json-schema, which interprets schemas (workerd forbids code generation).
 */
import { Validator, type Schema } from '@cfworker/json-schema';
import document from '../../docs/openapi.json' with { type: 'json' };

const DOCUMENT_ID = 'https://groundwork.test/openapi.json';
type Method = 'get' | 'post' | 'patch';
type MediaContent = Record<string, { schema?: unknown }>;
type PathItem = Partial<Record<Method, { responses: Record<string, { content?: MediaContent; headers?: Record<string, unknown> }> }>>;
const PATHS = document.paths as Record<string, PathItem>;

const TEMPLATES = Object.keys(PATHS).map((template) => ({
  template,
  pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}|\{[^}]+\}/g, '[^/]+')}$`),
}));

const validators = new Map<string, Validator>();

/** A validator for the schema at `pointer` in the document, resolving its `$ref`s there. */
function validatorAt(pointer: string): Validator {
  let validator = validators.get(pointer);
  if (!validator) {
    validator = new Validator({ $ref: `${DOCUMENT_ID}#${pointer}` }, '2020-12', false);
    validator.addSchema(structuredClone({ ...document, $id: DOCUMENT_ID }) as unknown as Schema, DOCUMENT_ID);
    validators.set(pointer, validator);
  }
  return validator;
}

const escapePointer = (part: string) => part.replace(/~/g, '~0').replace(/\//g, '~1');

/** The documented path a request path falls under, e.g. `/tasks/{id}/turns/{n}`. */
export function documentedPath(pathname: string): string | undefined {
  return TEMPLATES.find(({ pattern }) => pattern.test(pathname))?.template;
}

/** What is wrong with `response` to `method url` by the document; empty when it matches. */
export async function contractProblems(method: string, url: string, response: Response): Promise<string[]> {
  const { pathname } = new URL(url, 'http://groundwork.test');
  const status = response.status;
  const type = response.headers.get('content-type') ?? '';
  const text = await response.clone().text();
  const where = `${method} ${pathname} -> ${status}`;
  const template = documentedPath(pathname);
  const operation = template === undefined ? undefined : PATHS[template]?.[method.toLowerCase() as Method];
  if (template === undefined || operation === undefined) {
    // Not a documented operation: only the envelope of a 404 (unknown path) or 405 (other method) may answer.
    const expected = template === undefined ? 404 : 405;
    if (status !== expected) return [`${where}: no operation in docs/openapi.json, so it must be ${expected} with the error envelope`];
    return validateJson(where, text, type, '/components/schemas/Error');
  }
  const described = operation.responses[String(status)];
  if (!described) return [`${where}: docs/openapi.json describes ${Object.keys(operation.responses).join(', ')} for ${method} ${template}, not ${status}`];
  const missing = Object.keys(described.headers ?? {}).filter((name) => !response.headers.has(name));
  if (missing.length > 0) return [`${where}: docs/openapi.json says the answer carries ${missing.join(', ')}, which it does not`];
  const media = Object.keys(described.content ?? {});
  if (media.length === 0) return text === '' ? [] : [`${where}: the document describes no body, got ${text.slice(0, 80)}`];
  if (media.includes('text/html')) return type.startsWith('text/html') ? [] : [`${where}: the document describes text/html, got ${type}`];
  const pointer = ['', 'paths', template, method.toLowerCase(), 'responses', String(status), 'content', 'application/json', 'schema'].map(escapePointer).join('/');
  return validateJson(where, text, type, pointer);
}

function validateJson(where: string, text: string, type: string, pointer: string): string[] {
  if (!/^application\/json\b/.test(type)) return [`${where}: expected application/json, got ${type || 'no content-type'}`];
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return [`${where}: the body is not JSON: ${text.slice(0, 80)}`];
  }
  const result = validatorAt(pointer).validate(body);
  if (result.valid) return [];
  const deepest = result.errors.filter((error) => !result.errors.some((other) => other !== error && other.instanceLocation.startsWith(`${error.instanceLocation}/`)));
  return deepest.slice(0, 5).map((error) => `${where}: ${error.instanceLocation} ${error.error} (schema ${error.keywordLocation})`);
}

/** Fails the calling test when `response` does not match the document; returns it unchanged otherwise. */
export async function checkedResponse(method: string, url: string, response: Response): Promise<Response> {
  const problems = await contractProblems(method, url, response);
  if (problems.length > 0) throw new Error(`the response does not match docs/openapi.json:\n${problems.join('\n')}`);
  return response;
}

/**
 * `server.json`, Groundwork's entry for the official MCP registry (the local server as the npm
 * package, the remote one as a streamable-http endpoint on the host it is deployed at), validated
 * against the registry's own schema (test/fixtures/mcp-registry, release 2025-12-11) with
 * @cfworker/json-schema, and kept in step with package.json: the registry checks an npm package's
 * `mcpName` against the entry's name, and its version against the package's. A client runs the
 * package as `npx <identifier>@<version> mcp …`, and npx runs "the single entry in its bin field"
 * (npm/cli docs/content/commands/npm-exec.md), so the package keeps exactly one.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Validator, type Schema } from '@cfworker/json-schema';
import { describe, expect, it } from 'vitest';
import { MCP_USAGE } from '../../src/cli/mcp.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const read = (path: string): Record<string, unknown> => JSON.parse(readFileSync(join(ROOT, path), 'utf8')) as Record<string, unknown>;
const schema = read('test/fixtures/mcp-registry/server.schema.2025-12-11.json') as Schema;
const entry = read('server.json');
const pkg = read('package.json');
const validate = (value: unknown) => new Validator(schema, '7', false).validate(value);

describe('server.json', () => {
  it('is valid for the registry\u2019s 2025-12-11 schema, which it names', () => {
    expect(entry['$schema']).toBe(schema.$id);
    const result = validate(entry);
    expect(result.errors.map((error) => `${error.instanceLocation}: ${error.error}`)).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('would be refused by that validator with a description over 100 characters or a version range', () => {
    expect(validate({ ...entry, description: 'x'.repeat(101) }).valid).toBe(false);
    expect(validate({ ...entry, packages: [{ registryType: 'npm', identifier: 'groundwork-context', version: 'latest', transport: { type: 'stdio' } }] }).valid).toBe(false);
  });

  it('names the package package.json publishes under its mcpName and version, started with the mcp command', () => {
    expect(entry['name']).toBe(pkg['mcpName']);
    expect(entry['version']).toBe(pkg['version']);
    expect(entry['packages']).toEqual([expect.objectContaining({ registryType: 'npm', identifier: pkg['name'], version: pkg['version'], runtimeHint: 'npx', transport: { type: 'stdio' } })]);
  });

  it('runs the package\u2019s one bin, which the package ships, with options groundwork mcp takes', () => {
    const bin = pkg['bin'] as Record<string, string>;
    expect(Object.keys(bin)).toEqual(['groundwork']);
    expect(pkg['files']).toContain((bin['groundwork'] ?? '').split('/')[0]);
    const [local] = entry['packages'] as Array<{ packageArguments: Array<{ type: string; value?: string; name?: string }>; environmentVariables: Array<{ name: string; isSecret?: boolean }> }>;
    const [command, ...named] = local?.packageArguments ?? [];
    expect(command).toMatchObject({ type: 'positional', value: 'mcp' });
    const usage = MCP_USAGE.split('\n')[0] ?? '';
    for (const option of named) expect(usage, option.name).toContain(`[${option.name} `);
    expect(local?.environmentVariables.map((variable) => [variable.name, variable.isSecret])).toEqual([['GROUNDWORK_TOKEN', true], ['GITHUB_TOKEN', true]]);
  });

  it('offers the remote server at /mcp of the host it is deployed at, with an API token', () => {
    expect(entry['remotes']).toEqual([expect.objectContaining({ type: 'streamable-http', url: 'https://{host}/mcp', headers: [expect.objectContaining({ name: 'Authorization', value: 'Bearer {token}', isSecret: true })] })]);
  });
});

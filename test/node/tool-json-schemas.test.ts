/**
 * `tools/list` answers with JSON Schemas made at build time (src/mcp/tool-json-schemas,
 * src/mcp/tool-schemas.json), so the Worker carries no JSON Schema converter: these hold the
 * file to what zod makes of the schemas calls are validated with, every day, and the Worker
 * build's stand-in for the converter to the real module's exports.
 */
import { readFileSync } from 'node:fs';
import * as z from 'zod';
import { describe, expect, it } from 'vitest';
import { jsonSchemaStandIn } from '../../scripts/worker-build.ts';
import { toolJsonSchemas, toolSchemasText } from '../../src/mcp/tool-json-schemas.ts';
import { toolSchemas } from '../../src/mcp/tool-schemas.ts';
import { TOOLS, type ToolName } from '../../src/mcp/tools.ts';

const NAMES = Object.keys(TOOLS) as ToolName[];

describe("the MCP tools' JSON Schemas made at build time", () => {
  it('are what the zod schemas give now (npm run build rewrites the file)', () => {
    expect(readFileSync(new URL('../../src/mcp/tool-schemas.json', import.meta.url), 'utf8')).toBe(toolSchemasText());
  });

  it.each(['2026-12-06', '2028-02-29', '2031-12-31'])('are, on %s, what zod makes of every tool schema that day', (today) => {
    const made = toolJsonSchemas(today);
    for (const name of NAMES) {
      expect(toolSchemas(name, today), name).toEqual(made[name]);
      expect(made[name].input, name).toEqual(z.toJSONSchema(TOOLS[name].input(today), { target: 'draft-7', io: 'input' }));
    }
  });
});

describe("the Worker build's stand-in for zod's JSON Schema converter", () => {
  const modules = ['to-json-schema', 'json-schema-processors'];

  it.each(modules)("exports every name zod's core/%s.js does, and refuses naming itself when called", async (module) => {
    const path = new URL(`../../node_modules/zod/v4/core/${module}.js`, import.meta.url);
    const real: Record<string, unknown> = await import(path.href);
    const standIn: Record<string, unknown> = await import(`data:text/javascript,${encodeURIComponent(jsonSchemaStandIn(readFileSync(path, 'utf8'), `zod/v4/core/${module}.js`))}`);
    expect(Object.keys(standIn).sort()).toEqual(Object.keys(real).sort());
    for (const [name, value] of Object.entries(standIn)) {
      expect(typeof value, name).toBe('function');
      const call = () => (value as (...args: unknown[]) => unknown)({}, 'input');
      // The `create…Method` factories run when a schema's `~standard` is read; only their result refuses.
      const refusing = /^create\w*Method$/.test(name) ? (call() as () => unknown) : call;
      expect(refusing, name).toThrow(/JSON Schema converter is not part of the Worker bundle.*made at build time/);
    }
  });
});

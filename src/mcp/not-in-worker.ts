/**
 * @module mcp/not-in-worker
 * Stands in, in the Worker bundle only (wrangler.toml `[alias]`), for modules the MCP SDK imports
 * but this server never runs there: Ajv and its formats (the SDK's default JSON Schema validator,
 * which compiles schemas with `new Function`, refused by workerd; mcp/server passes
 * @cfworker/json-schema instead), and zod 3 with its JSON Schema converter (the SDK's path for
 * zod 3 schemas; ours are zod 4). About 35 KiB gzipped that could only ever throw. If the SDK
 * ever reaches one of them, it fails loudly here rather than compiling code at run time.
 */
function notInWorker(what: string): never {
  throw new Error(`${what} is not part of the Worker bundle (see src/mcp/not-in-worker.ts)`);
}

export default class NotInWorker {
  constructor() {
    notInWorker('Ajv');
  }
}

export function zodToJsonSchema(): never {
  return notInWorker('zod-to-json-schema');
}

/** zod 3's `object`, the one member the SDK's zod compatibility layer calls. */
export function object(): never {
  return notInWorker('zod 3');
}

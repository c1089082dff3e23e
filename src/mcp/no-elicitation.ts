/**
 * @module mcp/no-elicitation
 * The JSON Schema validator the MCP server is given. The SDK validates JSON Schema in one place
 * on a server: a client's answer to an elicitation (the server asking the user for input), and
 * this server asks none. So it takes no validator library: the SDK's default, Ajv, compiles
 * schemas with `new Function`, which workerd refuses, and an interpreting one (about 7 KiB
 * gzipped) would never run. Asked anyway, it refuses every value and says why.
 */
import type { jsonSchemaValidator, JsonSchemaValidatorResult } from '@modelcontextprotocol/sdk/validation/types.js';

export const noElicitationValidator: jsonSchemaValidator = {
  getValidator<T>() {
    return (): JsonSchemaValidatorResult<T> => ({ valid: false, data: undefined, errorMessage: 'the Groundwork MCP server sends no elicitation requests, so it validates no client answer against a schema' });
  },
};

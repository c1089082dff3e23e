/**
 * @module context/client-schema
 * `client` as `POST /tasks`, MCP `assemble_context` and the CLI's `--client` take it: the name
 * resolved by context/client `parseClient`, kept as its normalised label (so a stored request
 * parses again). Apart from the names, which import nothing.
 */
import * as z from 'zod';
import { lazySchema } from '../lib/lazy-schema.ts';
import { CLIENT_RULE, clientLabel, parseClient } from './client.ts';

export const ClientSchema = lazySchema(() => z
  .string()
  .max(64)
  .transform((value, ctx) => {
    const parsed = parseClient(value);
    if (parsed.ok) return clientLabel(parsed.client);
    ctx.addIssue({ code: 'custom', message: parsed.reason });
    return z.NEVER;
  })
  .meta({ description: `The coding agent that reads the context (default none): the rules give only what it does not load itself. ${CLIENT_RULE}` }));


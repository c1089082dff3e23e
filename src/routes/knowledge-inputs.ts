/**
 * @module routes/knowledge-inputs
 * The knowledge list's query, as the zod schema its route validates with (bodies are in
 * knowledge/input); the OpenAPI document (src/openapi/) is generated from the same schemas.
 */
import * as z from 'zod';
import { lazySchema } from '../lib/lazy-schema.ts';
import { LIST_STATUSES } from '../knowledge/results.ts';
import { RepoSchema } from '../tasks/task-request.ts';

export const ListQuerySchema = lazySchema(() => z.strictObject({
  repo: RepoSchema,
  status: z.enum(LIST_STATUSES, { error: `must be one of ${LIST_STATUSES.join(', ')}` }).optional(),
  cursor: z.string().max(1024).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
}));

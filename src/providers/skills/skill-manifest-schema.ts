/**
 * @module providers/skills/skill-manifest-schema
 * A served skill's manifest (skill-manifest) as zod checks it where it crosses a boundary: read
 * back from the cache (skill-catalog) and answered by the Task object over RPC (tasks/task-results).
 * Apart from the code that makes manifests, so the MCP side of the Worker can parse one without it.
 */
import * as z from 'zod';
import { lazySchema } from '../../lib/lazy-schema.ts';

export const SkillManifestSchema = lazySchema(() =>
  z.object({
    name: z.string(),
    dir: z.string(),
    skillFile: z.string(),
    frontmatter: z.looseObject({ name: z.string(), description: z.string() }),
    files: z.array(z.object({ path: z.string(), digest: z.string(), size: z.number().int().nonnegative() })),
    warnings: z.array(z.string()),
  }),
);

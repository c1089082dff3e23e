/**
 * @module context/host-facts
 * Facts the host knows and the repository cannot say (runtime versions, an available devbox,
 * the CI system in use), given when a task is created (`facts` on `POST /tasks`, and the MCP
 * `assemble_context` tool). The `host` provider renders them as the host's evidence, escaped
 * like all context: a fact informs the model, it never instructs it.
 *
 * Bounded here, at the edge, so every way in refuses the same things with the same field names.
 *
 * @example
 * HostFactsSchema.parse([{ title: 'Node.js', body: 'node 22.12.0 on the devbox', freshness: 'snapshot', source: { uri: 'https://ci.example.com/runners/7' } }])
 */
import * as z from 'zod';
import { lazySchema } from '../lib/lazy-schema.ts';

export const HOST_FACT_LIMITS = { maxFacts: 16, maxTitle: 120, maxBody: 4_000, maxTotalBody: 16_000, maxUri: 2_048 } as const;

/** A URI with a scheme (`https:`, `urn:`, `devbox:`…), never with credentials in it. */
const FactUri = lazySchema(() => z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(HOST_FACT_LIMITS.maxUri)
  .superRefine((value, ctx) => {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be a URI with a scheme, e.g. https://ci.example.com/… or urn:…' });
      return;
    }
    if (url.username !== '' || url.password !== '') ctx.addIssue({ code: 'custom', message: 'must not hold credentials' });
  }));

export const HostFactSchema = lazySchema(() => z.strictObject({
  title: z.string().trim().min(1, 'must not be empty').max(HOST_FACT_LIMITS.maxTitle),
  body: z.string().max(HOST_FACT_LIMITS.maxBody).refine((body) => body.trim() !== '', 'must not be empty'),
  /** `snapshot`: true when the task was created, may have changed since; `volatile`: check it again before relying on it. */
  freshness: z.enum(['snapshot', 'volatile']),
  /** Where the host learned it: what a person or a program can look at to confirm it. */
  source: z.strictObject({ uri: FactUri }),
}));
export type HostFact = z.output<typeof HostFactSchema>;

export const HostFactsSchema = lazySchema(() => z
  .array(HostFactSchema)
  .max(HOST_FACT_LIMITS.maxFacts)
  .superRefine((facts, ctx) => {
    const total = facts.reduce((sum, fact) => sum + fact.body.length, 0);
    if (total > HOST_FACT_LIMITS.maxTotalBody) ctx.addIssue({ code: 'custom', message: `bodies total ${total} characters, over the ${HOST_FACT_LIMITS.maxTotalBody} a task may carry` });
  }));

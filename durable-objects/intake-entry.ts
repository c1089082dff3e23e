/**
 * @module durable-objects/intake-entry
 * What a trigger's delivery leaves in its intake shard (task-intake) until its Task object has
 * it: the arguments of that object's `create`, as JSON. The Worker validated them before storing;
 * they are parsed again on the way out because storage is read back across deploys.
 */
import * as z from 'zod';
import { AgentConfigSchema } from '../src/context/agents.ts';
import { lazySchema } from '../src/lib/lazy-schema.ts';
import { TaskRequestSchema } from '../src/tasks/task-request.ts';
import { PendingEntrySchema } from './pull-request-entry.ts';

export const IntakeEntrySchema = lazySchema(() => z.strictObject({
  request: TaskRequestSchema,
  agent: AgentConfigSchema,
  options: z.strictObject({
    indexReport: z.enum(['now', 'with-assembly']).optional(),
    pullRequestEntry: PendingEntrySchema.optional(),
  }),
}));
export type IntakeEntry = z.input<typeof IntakeEntrySchema>;

export function readIntakeEntry(text: string): z.infer<typeof IntakeEntrySchema> {
  return IntakeEntrySchema.parse(JSON.parse(text));
}

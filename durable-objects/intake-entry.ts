/**
 * @module durable-objects/intake-entry
 * What a trigger's delivery leaves in its intake shard (task-intake) until its Task object has
 * it: the arguments of that object's `create`, as JSON. The Worker validated them before storing;
 * the Task object parses them again when it takes them (`createFromIntake`; the shard hands the
 * text on unread), because storage is read back across deploys and the object may run another
 * version than the Worker that wrote them: once, at the reader, not at every hop.
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
  return parseIntakeEntry(JSON.parse(text));
}

/** The entry's JSON value, read with its schema (the caller parsed the text). */
export function parseIntakeEntry(value: unknown): z.infer<typeof IntakeEntrySchema> {
  return IntakeEntrySchema.parse(value);
}

/**
 * @module context/transcript
 * The neutral transcript: the structured items a task's conversation is made of. It is the
 * source of truth of a turn (the turn JSON's `items`), what the format adapters translate into
 * vendor requests, and what a client appends. Items keep their structure (a tool call's name,
 * call id and arguments; a tool result's call id and error flag) and their stable ids, so a
 * transcript read from one task can be appended to another unchanged.
 *
 * Adding an item type is one more member of `TranscriptItemSchema`; every adapter's exhaustive
 * `switch` then fails to compile until it says how that vendor receives it (as it did for the
 * host's `mailbox` items).
 *
 * @example
 * const call = TranscriptItemSchema.parse({ id: 'm1-call', type: 'tool_call', name: 'read_file', callId: 'toolu_1', arguments: { path: 'README.md' } });
 * // -> { ..., role: 'assistant' }: the role follows from the type
 */
import * as z from 'zod';
import { lazySchema } from '../lib/lazy-schema.ts';
import { once } from '../lib/once.ts';
import { unreachable } from '../lib/unreachable.ts';
import { STABILITIES } from './entry.ts';
import { HOST_ITEM_PREFIX, PART_SEPARATOR } from './host-items.ts';
import { itemBytesIssue } from './transcript-limits.ts';

export { contextItemId, HOST_ITEM_PREFIX, mailboxItemId, PART_SEPARATOR, TASK_ITEM_ID } from './host-items.ts';

/** Deeper JSON than this in tool arguments is refused: vendors refuse it too, and serialising it could exhaust the stack. */
export const MAX_ARGUMENT_DEPTH = 64;

const ItemIdSchema = lazySchema(() => z.string().min(1).max(200));
// Unbounded as stored, so every stored row parses whatever the limits were when it was written;
// what a client may send is bounded in bytes (ClientItemSchema below).
const TextSchema = z.string();
/** Client text: counted in UTF-8 bytes, as it is stored and sent on. */
const ClientTextSchema = lazySchema(() => z.string().superRefine((text, ctx) => {
  const issue = itemBytesIssue(text);
  if (issue) ctx.addIssue({ code: 'custom', message: issue });
}));
/** Tool names and call ids are sent to every vendor; these are the characters all of them accept. */
const VENDOR_SAFE = /^[A-Za-z0-9_-]+$/;
export const ToolNameSchema = lazySchema(() => z.string().min(1).max(64).regex(VENDOR_SAFE, 'letters, digits, "_" and "-" only'));
export const CallIdSchema = lazySchema(() => z.string().min(1).max(200).regex(VENDOR_SAFE, 'letters, digits, "_" and "-" only'));

/** A stretch of host-rendered user text and what it depends on (see `Stability` in entry.ts). */
export const TextPartSchema = lazySchema(() => z.strictObject({ text: TextSchema, stability: z.enum(STABILITIES) }));
export type TextPart = z.infer<typeof TextPartSchema>;

/** Shapes are functions, so their schemas are built with the items' schemas and not at start-up (once: every item shares them). */
const messageShape = once(() => ({
  id: ItemIdSchema,
  type: z.literal('message'),
  role: z.enum(['user', 'assistant']),
  content: TextSchema,
}));

const toolCallShape = once(() => ({
  id: ItemIdSchema,
  type: z.literal('tool_call'),
  role: z.literal('assistant').default('assistant'),
  name: ToolNameSchema,
  /** The vendor's id for this call (Anthropic `tool_use.id`, OpenAI `call_id`); results name it. */
  callId: CallIdSchema,
  /** The tool input as a JSON object, never as a string holding JSON. */
  arguments: z
    .record(z.string(), z.unknown(), {
      error: (issue) => (issue.input === undefined ? 'required: the tool input as a JSON object (not JSON text in content)' : 'must be a JSON object'),
    })
    // Aborts, so nothing serialises arguments nested past the limit.
    .refine((value) => jsonDepth(value) <= MAX_ARGUMENT_DEPTH, { message: `nested deeper than ${MAX_ARGUMENT_DEPTH} levels`, abort: true }),
}));

const toolResultShape = once(() => ({
  id: ItemIdSchema,
  type: z.literal('tool_result'),
  role: z.literal('tool').default('tool'),
  /** The `callId` of the tool call this answers. */
  callId: CallIdSchema,
  /** The tool's name, when the client says it; it must match the call's. */
  name: ToolNameSchema.optional(),
  content: TextSchema,
  /** The tool failed and `content` says how. */
  isError: z.boolean().default(false),
}));

/**
 * A message. Host-rendered user messages (the task item) also carry `parts`: the same text split
 * where its stability changes, so an adapter can mark the end of the commit-stable context as a
 * cache boundary. `content` is then exactly the parts joined by `PART_SEPARATOR`.
 */
export const MessageItemSchema = lazySchema(() => z
  .strictObject({ ...messageShape(), parts: z.array(TextPartSchema).min(1).optional() })
  .refine((item) => item.parts === undefined || item.parts.map((part) => part.text).join(PART_SEPARATOR) === item.content, {
    message: 'content must be the parts joined by a blank line',
    path: ['parts'],
  }));
export const ToolCallItemSchema = lazySchema(() => z.strictObject(toolCallShape()));
export const ToolResultItemSchema = lazySchema(() => z.strictObject(toolResultShape()));
/** Context gathered for a later turn (`local:context:<n>`), rendered by the host. */
export const ContextItemSchema = lazySchema(() => z.strictObject({ id: ItemIdSchema, type: z.literal('context'), role: z.literal('user').default('user'), content: TextSchema }));

/**
 * A follow-up from whoever asked for the task (`local:mailbox:<k>`), written by the host: posted
 * to the task's mailbox, or a pull request comment or push that amends it. `content` is the text
 * inside its `<groundwork-mailbox from="…">` wrapper, as the model reads it.
 */
export const MailboxItemSchema = lazySchema(() => z.strictObject({
  id: ItemIdSchema,
  type: z.literal('mailbox'),
  role: z.literal('user').default('user'),
  from: z.string().min(1).max(200),
  content: TextSchema,
  receivedAt: z.iso.datetime(),
}));

export const TranscriptItemSchema = lazySchema(() => z.discriminatedUnion('type', [MessageItemSchema, ToolCallItemSchema, ToolResultItemSchema, ContextItemSchema, MailboxItemSchema]));
export type TranscriptItem = z.output<typeof TranscriptItemSchema>;
/** What the host itself writes: the task item and context items. */
export const HostItemSchema = lazySchema(() => z.discriminatedUnion('type', [MessageItemSchema, ContextItemSchema]));
export type HostItem = z.output<typeof HostItemSchema>;
export type TranscriptItemInput = z.input<typeof TranscriptItemSchema>;
export type MessageItem = z.output<typeof MessageItemSchema>;
export type ToolCallItem = z.output<typeof ToolCallItemSchema>;
export type ToolResultItem = z.output<typeof ToolResultItemSchema>;
export type MailboxItem = z.output<typeof MailboxItemSchema>;

const ClientItemIdSchema = lazySchema(() => ItemIdSchema.refine((id) => !id.startsWith(HOST_ITEM_PREFIX), `ids starting with "${HOST_ITEM_PREFIX}" are reserved for the host`));

/** What a client may append: messages, tool calls and tool results, with ids of its own. Unknown fields are refused. */
export const ClientItemSchema = lazySchema(() => z.discriminatedUnion(
  'type',
  [
    z.strictObject({ ...messageShape(), id: ClientItemIdSchema, content: ClientTextSchema.unwrap().min(1) }),
    z.strictObject({
      ...toolCallShape(),
      id: ClientItemIdSchema,
      arguments: toolCallShape().arguments.superRefine((value, ctx) => {
        const issue = itemBytesIssue(JSON.stringify(value), "a tool call's arguments (as JSON)");
        if (issue) ctx.addIssue({ code: 'custom', message: issue });
      }),
    }),
    z.strictObject({ ...toolResultShape(), id: ClientItemIdSchema, content: ClientTextSchema }),
  ],
  { error: 'must be "message", "tool_call" or "tool_result"' },
));

/** The role/content view of an item, as the turn JSON's `messages` shows it (a tool call shows its arguments as JSON text). */
/** The role/content view of a turn's host system blocks and its transcript, in order. */
export function transcriptMessages(system: readonly string[], items: readonly TranscriptItem[]): Array<{ role: 'system' | 'user' | 'assistant' | 'tool'; content: string }> {
  return [...system.map((content) => ({ role: 'system' as const, content })), ...items.map(messageView)];
}

export function messageView(item: TranscriptItem): { role: 'user' | 'assistant' | 'tool'; content: string } {
  switch (item.type) {
    case 'message':
    case 'context':
    case 'mailbox':
    case 'tool_result':
      return { role: item.role, content: item.content };
    case 'tool_call':
      return { role: item.role, content: JSON.stringify(item.arguments) };
    default:
      return unreachable(item, 'transcript item');
  }
}

/** Nesting depth of a JSON value, without recursion (the value is hostile and may be deep). */
function jsonDepth(value: unknown): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 1]];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [current, depth] = next;
    if (current === null || typeof current !== 'object') continue;
    deepest = Math.max(deepest, depth);
    if (deepest > MAX_ARGUMENT_DEPTH) return deepest;
    for (const child of Object.values(current)) stack.push([child, depth + 1]);
  }
  return deepest;
}

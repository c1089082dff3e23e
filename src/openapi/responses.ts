/**
 * @module openapi/responses
 * The shapes the HTTP routes answer with that no other module already names as a zod schema
 * (the small wrappers routes build around a Durable Object's answer, the error envelope). The
 * larger ones (a task, a turn, a freshness report, knowledge) are the schemas the routes parse
 * those answers with, imported where the operations are described.
 */
import * as z from 'zod';
import { ORIGINS } from '../context/provider.ts';
import { ERROR_STATUS, type ErrorCode } from '../http/errors.ts';
import { TASK_STATUSES } from '../tasks/task-request.ts';
import { TaskDescriptionSchema } from '../tasks/task-results.ts';

const ERROR_CODES = Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]];

/** `{ error: { code, message, requestId } }`: what every JSON route answers for every error. */
export const ErrorEnvelopeSchema = z
  .strictObject({
    error: z.strictObject({
      code: z.enum(ERROR_CODES).meta({ description: 'One of a closed set; the HTTP status follows from it (bad_request 400, not_found 404, …).' }),
      message: z.string().meta({ description: 'What was wrong, naming the field when a field was (e.g. `providers.skills.roots[0]: …`).' }),
      requestId: z.string().meta({ description: 'Also sent as the x-request-id header; the log line of a 500 carries it.' }),
    }),
  })
  .meta({ id: 'Error' });

/** A signed inspector link, or null when the deployment has no VIEW_LINK_SECRET. */
const ViewUrl = z.string().nullable().meta({ description: 'A signed link to the page in the inspector, or null without VIEW_LINK_SECRET.' });

export const CreatedTaskSchema = z.strictObject({ id: z.string().regex(/^[0-9a-f]{64}$/), status: z.literal('pending'), viewUrl: ViewUrl });

export const TaskListSchema = z.strictObject({
  tasks: z.array(
    z.strictObject({
      id: z.string(),
      tenant: z.string(),
      status: z.enum(TASK_STATUSES),
      reason: z.string().nullable(),
      origin: z.enum(ORIGINS),
      repo: z.string(),
      agent: z.string(),
      request: z.string().meta({ description: 'The first 200 characters of the request.' }),
      commit: z.string().nullable(),
      createdAt: z.iso.datetime(),
      updatedAt: z.iso.datetime(),
      expiresAt: z.iso.datetime(),
      viewUrl: ViewUrl,
    }),
  ),
  nextCursor: z.string().nullable(),
  viewUrl: ViewUrl,
});

export const TaskSchema = TaskDescriptionSchema.unwrap().extend({ viewUrl: ViewUrl });

const FocusSplit = z.strictObject({ recorded: z.array(z.string()), duplicates: z.array(z.string()) });
/** What `POST /tasks/:id/paths` answers: what was new, what the task followed already, and the turn that takes it. */
export const FocusAnswerSchema = z.strictObject({ paths: FocusSplit, skills: FocusSplit, rules: FocusSplit, nextTurn: z.number().int().nonnegative() });

export const AppendedSchema = z.strictObject({ appended: z.array(z.string()), duplicates: z.array(z.string()) });

/** A turn as a model API request body (`?format=`): the vendor's own shape, open beyond these fields. */
export const FormattedRequestSchema = z.union([
  z.looseObject({ system: z.array(z.unknown()), messages: z.array(z.unknown()), tools: z.array(z.unknown()) }).meta({ title: 'anthropic' }),
  z.looseObject({ instructions: z.string(), input: z.array(z.unknown()), tools: z.array(z.unknown()), prompt_cache_key: z.string() }).meta({ title: 'openai-responses' }),
  z.looseObject({ messages: z.array(z.unknown()), tools: z.array(z.unknown()), prompt_cache_key: z.string() }).meta({ title: 'openai-chat' }),
]);

export const WebhookAnswerSchema = z.union([
  z.strictObject({ taskId: z.string(), status: z.enum(TASK_STATUSES), duplicate: z.boolean() }).meta({ title: 'task started' }),
  z.strictObject({ taskId: z.string(), mailboxItem: z.string(), duplicate: z.boolean() }).meta({ title: 'follow-up to a task' }),
  z.strictObject({ installationId: z.number().int(), action: z.string(), repositories: z.number().int() }).meta({ title: 'installation recorded' }),
  z.strictObject({ ignored: z.string() }).meta({ title: 'ignored' }),
]);

export const SlackMessageSchema = z.strictObject({ response_type: z.literal('ephemeral'), text: z.string() });

export const HealthSchema = z.strictObject({ ok: z.literal(true) });

const JsonRpcId = z.union([z.string(), z.number().int()]);

/** A JSON-RPC 2.0 message as `POST /mcp` takes it; its method and params are MCP's (tools/call, …). */
const JsonRpcMessageSchema = z
  .looseObject({
    jsonrpc: z.literal('2.0'),
    id: JsonRpcId.optional().meta({ description: 'Present on requests; absent on notifications.' }),
    method: z.string().optional().meta({ description: 'An MCP method: server/discover, initialize, tools/list, tools/call, resources/list, resources/templates/list, resources/read, completion/complete, skills/list, skills/get, ping, notifications/…' }),
    params: z.record(z.string(), z.unknown()).optional(),
  })
  .meta({ id: 'JsonRpcMessage' });
export const McpRequestSchema = z.union([JsonRpcMessageSchema, z.array(JsonRpcMessageSchema).min(1)]);

const JsonRpcErrorObject = z.looseObject({ code: z.number().int(), message: z.string(), data: z.unknown().optional() });
/** What the MCP transport answers for a message it cannot take (not JSON, not JSON-RPC, too large, …). */
export const JsonRpcErrorResponseSchema = z.looseObject({ jsonrpc: z.literal('2.0'), id: JsonRpcId.optional(), error: JsonRpcErrorObject });
const JsonRpcResponseSchema = z.union([z.looseObject({ jsonrpc: z.literal('2.0'), id: JsonRpcId, result: z.record(z.string(), z.unknown()) }), JsonRpcErrorResponseSchema]);
export const McpResponseSchema = z.union([JsonRpcResponseSchema, z.array(JsonRpcResponseSchema)]);

/**
 * @module openapi/operations
 * Every HTTP route the Worker serves, described once: its method and path (as the route is
 * written in Hono), who may call it, what it takes and what it answers, each as the zod schema
 * the route validates with or parses its answer with. `npm run build` turns this list into
 * `docs/openapi.json` (src/openapi/document.ts, Node only, so the generator stays out of the
 * Worker bundle); the Worker serves that file at `GET /openapi.json`. A route the app serves that
 * is missing here fails `test/openapi/coverage.test.ts`.
 *
 * @example
 * // A new route is one more entry, next to its neighbours:
 * { method: 'post', path: '/tasks/:id/paths', tag: 'tasks', summary: 'Add focus paths to a task',
 *   auth: 'bearer', params: TaskIdParams, body: AddPathsSchema,
 *   responses: { 200: { description: 'The paths the task now has', schema: PathsSchema } },
 *   errors: [400, 401, 403, 404, 409, 413, 415, 502] }
 */
import * as z from 'zod';
import { AssembledTurnSchema } from '../context/turn-schema.ts';
import { FreshnessReportSchema } from '../freshness/report.ts';
import { CheckRequestSchema } from '../checks/check-request.ts';
import { CheckRecordSchema } from '../checks/result.ts';
import { TaskListQuerySchema } from '../http/list-query.ts';
import { MailboxItemSchema } from '../context/transcript.ts';
import { KnowledgeSchema } from '../context/knowledge.ts';
import { createKnowledgeSchema, editKnowledgeSchema, RetireSchema, taskKnowledgeSchema } from '../knowledge/input.ts';
import { KnowledgeViewSchema } from '../knowledge/results.ts';
import { ListQuerySchema as KnowledgeListQuerySchema } from '../routes/knowledge-inputs.ts';
import { BeginTurnSchema, CreateTaskSchema, FocusPostSchema, FormatParam, MailboxPostSchema, TurnParam, WaitParam } from '../routes/task-inputs.ts';
import { MAX_TASK_WAIT_SECONDS } from '../tasks/task-wait.ts';
import { SlashCommandSchema } from '../triggers/slack/slash-command.ts';
import { AppendTranscriptSchema } from '../tasks/transcript.ts';
import { TurnUsageSchema, UsageReportSchema } from '../tasks/turn-usage.ts';
import { AppendedSchema, CreatedTaskSchema, FocusAnswerSchema, JsonRpcErrorResponseSchema, McpRequestSchema, McpResponseSchema, FormattedRequestSchema, HealthSchema, SlackMessageSchema, TaskListSchema, TaskSchema, WebhookAnswerSchema } from './responses.ts';

/** Who may call a route: an API token (or a person's access token), that or a signed inspector link or a sign-in, a signed webhook, or anyone. */
export type Auth = 'bearer' | 'bearer-or-link' | 'github-signature' | 'slack-signature' | 'none';

export interface ApiResponse {
  description: string;
  /** The JSON body's schema; absent with `html`. */
  schema?: z.ZodType;
  /** A server-rendered page (`text/html`). */
  html?: true;
  /** Response headers the client reads, by name, with what each says. */
  headers?: Record<string, string>;
}

export interface ApiOperation {
  method: 'get' | 'post' | 'patch';
  /** As the route is written in Hono: `/tasks/:id/turns/:n`. */
  path: string;
  tag: 'tasks' | 'knowledge' | 'triggers' | 'inspector' | 'auth' | 'service' | 'mcp';
  summary: string;
  description?: string;
  auth: Auth;
  params?: z.ZodObject;
  query?: z.ZodObject;
  headers?: z.ZodObject;
  /** `application/json` request body. */
  body?: z.ZodType;
  /** `application/x-www-form-urlencoded` request body. */
  form?: z.ZodType;
  responses: Record<number, ApiResponse>;
  /** Statuses answered with the error envelope (HTML routes: an error page). */
  errors: readonly number[];
}

/** Request bodies whose bounds depend on the day (review dates) are described as of this one. */
const DESCRIBED_ON = '2026-01-01';

const TaskIdParams = z.object({ id: z.string().meta({ description: 'The task id (64 hex), as POST /tasks answered it.' }) });
const TurnParams = TaskIdParams.extend({ n: TurnParam.meta({ description: 'Turn number, in plain decimal (0, 1, 12).' }) });
const KnowledgeIdParams = z.object({ id: z.string().meta({ description: 'A knowledge object id, `k_<64 hex>_<16 hex>`.' }) });
const TaskQuery = z.object({ wait: WaitParam.optional().meta({ description: `Seconds (0 to ${MAX_TASK_WAIT_SECONDS}, plain decimal) to wait for the task to be ready or failed.` }) });
const TurnQuery = z.object({ format: FormatParam.meta({ description: 'Answer the turn as a request body for that model API instead of the assembled-turn JSON.' }) });
const TaskPageQuery = z.object({
  exp: z.string().optional().meta({ description: 'Signed link: expiry, in unix seconds.' }),
  sig: z.string().optional().meta({ description: 'Signed link: HMAC-SHA256 signature (hex).' }),
  freshness: z.literal('1').optional().meta({ description: 'Run the read-back and show what changed since the pinned commit.' }),
});
const ListPageQuery = TaskListQuerySchema.unwrap().extend({
  tenant: z.string().optional().meta({ description: 'Signed list link: the tenant it lists.' }),
  exp: z.string().optional().meta({ description: 'Signed list link: expiry, in unix seconds.' }),
  sig: z.string().optional().meta({ description: 'Signed list link: signature (hex).' }),
});
const GitHubHeaders = z.object({
  'X-GitHub-Event': z.string(),
  'X-GitHub-Delivery': z.string().meta({ description: 'The delivery GUID.' }),
  'X-Hub-Signature-256': z.string().meta({ description: '`sha256=` and the HMAC-SHA256 of the raw body with the webhook secret.' }),
});
const SlackHeaders = z.object({
  'X-Slack-Request-Timestamp': z.string(),
  'X-Slack-Signature': z.string().meta({ description: '`v0=` and the HMAC-SHA256 of `v0:{timestamp}:{body}` with the signing secret.' }),
});

const json = (description: string, schema: z.ZodType): ApiResponse => ({ description, schema });
const page = (description: string): ApiResponse => ({ description, html: true });

export const OPERATIONS: readonly ApiOperation[] = [
  {
    method: 'get', path: '/health', tag: 'service', summary: 'Is the Worker up', auth: 'none',
    responses: { 200: json('The Worker answers.', HealthSchema) }, errors: [],
  },
  {
    method: 'get', path: '/openapi.json', tag: 'service', summary: 'This document', auth: 'none',
    description: 'The OpenAPI 3.1 document of this API, as `npm run build` generated it from the routes\u2019 zod schemas (also `docs/openapi.json`).',
    responses: { 200: json('The OpenAPI document.', z.looseObject({ openapi: z.string(), paths: z.record(z.string(), z.unknown()) })) }, errors: [],
  },
  {
    method: 'post', path: '/tasks', tag: 'tasks', summary: 'Create a task', auth: 'bearer', body: CreateTaskSchema,
    description: 'Stores the task and answers at once; turn 0 is assembled in the background. `Location` names the task: `GET` it with `?wait=30` to be answered as soon as it is ready or failed. Unknown fields are refused.',
    responses: { 202: { ...json('The task is stored; assembly runs in its Durable Object.', CreatedTaskSchema), headers: { Location: 'The task\u2019s URL, `GET /tasks/{id}`.' } } }, errors: [400, 401, 403, 413, 415, 502, 503],
  },
  {
    method: 'get', path: '/tasks', tag: 'tasks', summary: 'List tasks, newest first', auth: 'bearer', query: TaskListQuerySchema.unwrap(),
    description: 'The tenant\u2019s tasks and those of the tenants it was granted; for a person signed in with GitHub, their own and the App installations\u2019 tasks on repositories GitHub says they can read. A bad, repeated or unknown parameter is a 400 naming it.',
    responses: { 200: json('One page of tasks.', TaskListSchema) }, errors: [400, 401, 403, 502, 503],
  },
  {
    method: 'get', path: '/tasks/:id', tag: 'tasks', summary: 'Read a task', auth: 'bearer', params: TaskIdParams, query: TaskQuery,
    description: `With \`wait\` (seconds, at most ${MAX_TASK_WAIT_SECONDS}) a task that is not \`ready\` or \`failed\` yet is answered as soon as it is, or when the wait ends, as it is then: read \`status\` either way. Without it, at once.`,
    responses: { 200: json('Status, request, pinned commit, mailbox summary and per-turn metadata.', TaskSchema) }, errors: [400, 401, 404, 502, 503],
  },
  {
    method: 'get', path: '/tasks/:id/turns/:n', tag: 'tasks', summary: 'Read a turn', auth: 'bearer', params: TurnParams, query: TurnQuery,
    responses: { 200: json('The assembled-turn JSON, or with `format` a model API request body.', z.union([AssembledTurnSchema, FormattedRequestSchema])) },
    errors: [400, 401, 404, 502, 503],
  },
  {
    method: 'post', path: '/tasks/:id/turns', tag: 'tasks', summary: 'Begin a turn', auth: 'bearer', params: TaskIdParams, body: BeginTurnSchema,
    description: 'Idempotent: a stored turn is returned as stored. A turn that is not next, or a task that failed, is a 409.',
    responses: { 200: json('The assembled-turn JSON of that turn.', AssembledTurnSchema) }, errors: [400, 401, 403, 404, 409, 413, 415, 502, 503],
  },
  {
    method: 'post', path: '/tasks/:id/transcript', tag: 'tasks', summary: 'Append transcript items', auth: 'bearer', params: TaskIdParams, body: AppendTranscriptSchema,
    description: 'Messages, tool calls and tool results. An id already present is a duplicate; a tool result that answers no earlier call refuses the whole batch.',
    responses: { 200: json('The ids appended and the ids already present.', AppendedSchema) }, errors: [400, 401, 403, 404, 409, 413, 415, 502, 503],
  },
  {
    method: 'post', path: '/tasks/:id/turns/:n/usage', tag: 'tasks', summary: 'Report what the model API said about a turn’s request', auth: 'bearer', params: TurnParams, body: UsageReportSchema,
    description:
      'The `usage` block the vendor answered for this turn’s request, in its own shape (`anthropic`, `openai-responses`, `openai-chat`), so the inspector shows input, cached and written tokens beside Groundwork’s estimate. Once per turn: the same report again answers 200 with the recorded one; a different one is a 409, as is a turn that has not begun.',
    responses: {
      201: json('Recorded.', z.strictObject({ usage: TurnUsageSchema, duplicate: z.literal(false) })),
      200: json('Already recorded: the same report.', z.strictObject({ usage: TurnUsageSchema, duplicate: z.literal(true) })),
    },
    errors: [400, 401, 403, 404, 409, 413, 415, 502, 503],
  },
  {
    method: 'post', path: '/tasks/:id/mailbox', tag: 'tasks', summary: 'Post a follow-up', auth: 'bearer', params: TaskIdParams, body: MailboxPostSchema,
    description: 'Appends a `local:mailbox:<k>` item; the next turn carries it. The same `id` again answers 200 with the same item.',
    responses: {
      201: json('Appended.', z.strictObject({ item: MailboxItemSchema, duplicate: z.literal(false) })),
      200: json('Already appended under this id.', z.strictObject({ item: MailboxItemSchema, duplicate: z.literal(true) })),
    },
    errors: [400, 401, 403, 404, 409, 413, 415, 502, 503],
  },
  {
    method: 'post', path: '/tasks/:id/paths', tag: 'tasks', summary: 'Follow the agent to new paths', auth: 'bearer', params: TaskIdParams, body: FocusPostSchema,
    description:
      'Records focus paths (files or directories the agent works in now) and skills asked for by name. The next turn to begin appends one `local:context:<n>` with the rules those paths bring and the skills, leaving out what an earlier turn gave; nothing new, nothing appended. Idempotent: what the task follows already is a duplicate. At most 256 paths and 64 skills per task.',
    responses: {
      201: json('Something new was recorded.', FocusAnswerSchema),
      200: json('Everything was a duplicate; nothing was recorded.', FocusAnswerSchema),
    },
    errors: [400, 401, 403, 404, 409, 413, 415, 503],
  },
  {
    method: 'get', path: '/tasks/:id/freshness', tag: 'tasks', summary: 'Read back what changed since the task was pinned', auth: 'bearer', params: TaskIdParams,
    description: 'Compares every source that reached the model with where the task\u2019s ref points now, and the rule set that applies to the task\u2019s focus (working directory, pull request paths, posted paths) at both commits: rule files added, removed, renamed, now shadowing or shadowed, scoped rules newly matching or no longer, imports, settings that change what is read, a skills root that appeared (`ruleSet`). Reads, never writes.',
    responses: { 200: json('The freshness report.', FreshnessReportSchema) }, errors: [401, 404, 409, 502, 503],
  },
  {
    method: 'post', path: '/tasks/:id/checks', tag: 'tasks', summary: 'Check before an action (push, report-ci, merge, apply-knowledge)', auth: 'bearer', params: TaskIdParams, body: CheckRequestSchema,
    description:
      'Reads exactly what the action depends on (the branch on the remote, GitHub\u2019s checks on the commit, the pull request, the knowledge the model was given) and says go, stop or unknown with the reasons; a read that fails or does not finish within 10 s is unknown, never go. The answer is recorded on the task (the last 50); the transcript and the turns are never touched. A field the action does not take is a 400 naming it; 409 before the commit is pinned, and for merge on a task that is not about a pull request.',
    responses: { 200: json('The verdict, what was read and why, as recorded on the task.', CheckRecordSchema) }, errors: [400, 401, 404, 409, 413, 415, 502, 503],
  },
  {
    method: 'post', path: '/tasks/:id/knowledge', tag: 'knowledge', summary: 'Record what a task learned', auth: 'bearer', params: TaskIdParams, body: taskKnowledgeSchema(DESCRIBED_ON),
    description: 'Sourced to the task at its commit, in the task\u2019s repository\u2019s scope. `reviewBy` is today at the earliest and at most a year ahead. A tenant reading the task through a grant is refused (403): grants are for reading.',
    responses: { 201: json('The knowledge object.', KnowledgeSchema) }, errors: [400, 401, 403, 404, 409, 413, 415, 502, 503],
  },
  {
    method: 'post', path: '/knowledge', tag: 'knowledge', summary: 'Record knowledge', auth: 'bearer', body: createKnowledgeSchema(DESCRIBED_ON),
    description: 'Knowledge without a source is refused. `reviewBy` is today at the earliest and at most a year ahead (default 90 days).',
    responses: { 201: json('The knowledge object.', KnowledgeSchema) }, errors: [400, 401, 403, 409, 413, 415, 502, 503],
  },
  {
    method: 'get', path: '/knowledge', tag: 'knowledge', summary: 'List knowledge of a repository', auth: 'bearer', query: KnowledgeListQuerySchema.unwrap(),
    responses: { 200: json('One page of current versions.', z.strictObject({ items: z.array(KnowledgeSchema), nextCursor: z.string().nullable() })) },
    errors: [400, 401, 403, 502, 503],
  },
  {
    method: 'get', path: '/knowledge/:id', tag: 'knowledge', summary: 'Read one version', auth: 'bearer', params: KnowledgeIdParams,
    responses: { 200: json('The version (a replaced one names `supersededBy`).', KnowledgeViewSchema) }, errors: [401, 404, 502, 503],
  },
  {
    method: 'get', path: '/knowledge/:id/versions', tag: 'knowledge', summary: 'Read every version', auth: 'bearer', params: KnowledgeIdParams,
    responses: { 200: json('Every version, oldest first.', z.strictObject({ versions: z.array(KnowledgeViewSchema) })) }, errors: [401, 404, 502, 503],
  },
  {
    method: 'patch', path: '/knowledge/:id', tag: 'knowledge', summary: 'Edit (and so review) knowledge', auth: 'bearer', params: KnowledgeIdParams, body: editKnowledgeSchema(DESCRIBED_ON),
    responses: { 200: json('The new version.', KnowledgeSchema) }, errors: [400, 401, 403, 404, 409, 413, 415, 502, 503],
  },
  {
    method: 'post', path: '/knowledge/:id/retire', tag: 'knowledge', summary: 'Retire knowledge', auth: 'bearer', params: KnowledgeIdParams, body: RetireSchema,
    responses: { 200: json('The new, retired version.', KnowledgeSchema) }, errors: [400, 401, 403, 404, 409, 413, 415, 502, 503],
  },
  {
    method: 'post', path: '/mcp', tag: 'mcp', summary: 'The remote MCP server (Streamable HTTP)', auth: 'bearer', body: McpRequestSchema,
    description:
      'Not a REST resource: a JSON-RPC 2.0 endpoint speaking the Model Context Protocol, 2026-07-28 (stateless: version and capabilities in each request\u2019s `_meta`, `server/discover`) beside 2025-11-25 and earlier (`initialize`), over the Streamable HTTP transport (stateless, JSON answers). Send `Accept: application/json, text/event-stream`; a 2026-07-28 request also `MCP-Protocol-Version`, `Mcp-Method` and, for tools/call and resources/read, `Mcp-Name`. Tools: assemble_context, get_turn, context_for_paths, check_before, check_freshness, read_skill, rules_for_paths, remember, recall, retire_knowledge, post_followup; resources groundwork://tasks/{id}/turns/{n}, groundwork://tasks/{id}/sources/{path} and the skill:// files of the skills extension (`skills/list`, `skills/get`); completions of the templates\u2019 arguments. A bad tool argument is a tool result with `isError: true` naming the field. A browser `Origin` other than this service\u2019s own or MCP_ALLOWED_ORIGINS is refused 403; GET and DELETE are 405. See docs/integrations.md.',
    responses: {
      200: json('The JSON-RPC response (or responses, for a batch).', McpResponseSchema),
      202: { description: 'Accepted: the body held only notifications or responses.' },
      400: json(
        'Not JSON (-32700); JSON that is not a JSON-RPC message, an empty batch, one over 100 messages, one bundling initialize or a batch under 2025-06-18 or later (-32600); a protocol version the server does not speak (-32022, listing those it does); MCP headers missing or not matching the body (-32020); a 2026-07-28 request whose _meta lacks its version or capabilities (-32602). A JSON-RPC error, its id absent when none could be read.',
        JsonRpcErrorResponseSchema,
      ),
      404: json('A 2026-07-28 request for a method this server does not have (-32601).', JsonRpcErrorResponseSchema),
      406: json('The Accept header does not list application/json and text/event-stream as media types: a JSON-RPC error.', JsonRpcErrorResponseSchema),
      413: json('The body is over 1 MiB: a JSON-RPC error.', JsonRpcErrorResponseSchema),
      415: json('Content-Type is not the media type application/json (UTF-8): a JSON-RPC error.', JsonRpcErrorResponseSchema),
    },
    errors: [401, 403, 503],
  },
  {
    method: 'post', path: '/webhooks/github', tag: 'triggers', summary: 'GitHub App webhook', auth: 'github-signature', headers: GitHubHeaders,
    body: z.looseObject({}).meta({ description: 'The event\u2019s payload as GitHub sends it; checked after the signature.' }),
    description: 'Verified before it is parsed: content type (415), the three headers (400 naming the missing ones), the signature (401), then JSON and the event\u2019s schema (400).',
    responses: { 202: json('A task started, or a follow-up went to a running task.', WebhookAnswerSchema), 200: json('An installation change was recorded, or the event was ignored.', WebhookAnswerSchema) },
    errors: [400, 401, 413, 415, 503],
  },
  {
    method: 'post', path: '/slack/commands', tag: 'triggers', summary: 'Slack slash command', auth: 'slack-signature', headers: SlackHeaders, form: SlashCommandSchema,
    description: '`/groundwork owner/repo[#PR][@ref][:path] request words $skill`, `remember` and `knowledge`. Bad syntax is answered with the usage text, with status 200 as Slack expects.',
    responses: { 200: json('An ephemeral message for the person who typed the command.', SlackMessageSchema) }, errors: [401, 413, 415, 503],
  },
  {
    method: 'get', path: '/tasks/:id/view', tag: 'inspector', summary: 'The task\u2019s inspector page', auth: 'bearer-or-link', params: TaskIdParams, query: TaskPageQuery,
    responses: { 200: page('The task page.') }, errors: [400, 401, 403, 404, 502, 503],
  },
  {
    method: 'get', path: '/view', tag: 'inspector', summary: 'The task list page', auth: 'bearer-or-link', query: ListPageQuery,
    responses: { 200: page('The task list.') }, errors: [400, 401, 403, 502, 503],
  },
  {
    method: 'get', path: '/authorize', tag: 'auth', summary: 'OAuth authorization endpoint: the consent page', auth: 'none',
    description:
      'Where an MCP client sends a person to sign in (OAuth 2.1 authorization code with PKCE S256, `resource` per RFC 8707). The request is checked (client, its exact registered redirect URI, PKCE, resource) and the person is asked whether this client may use Groundwork as them; a request that fails before the client and redirect URI are known is a page, never a redirect. Served where GITHUB_APP_CLIENT_ID and GITHUB_APP_CLIENT_SECRET are set; see docs/security.md.',
    responses: { 200: page('The consent page.'), 302: { description: 'Back to the client\u2019s validated redirect URI with an OAuth error.' } }, errors: [400, 404, 503],
  },
  {
    method: 'post', path: '/authorize', tag: 'auth', summary: 'Consent: continue with GitHub, or deny', auth: 'none',
    form: z.object({ handle: z.string().meta({ description: 'The consent page\u2019s handle, bound to the browser that opened it.' }), decision: z.enum(['approve', 'deny']) }),
    responses: { 302: { description: 'To GitHub to sign in (approve), or back to the client with `access_denied` (deny).' } }, errors: [400, 404, 503],
  },
  {
    method: 'get', path: '/oauth/callback', tag: 'auth', summary: 'GitHub\u2019s callback (the App\u2019s callback URL)', auth: 'none',
    description: 'GitHub sends the person back here with a code. For an MCP client\u2019s authorization: back to the client with its own code. For the inspector\u2019s sign-in: a session cookie and back to the page.',
    responses: { 302: { description: 'To the client\u2019s redirect URI, or to the page the sign-in started from.' } }, errors: [400, 403, 404, 502, 503],
  },
  {
    method: 'get', path: '/signin', tag: 'auth', summary: 'Sign in to the inspector with GitHub', auth: 'none',
    query: z.object({ return: z.string().optional().meta({ description: 'The page to come back to, a path on this site (default /view).' }) }),
    responses: { 302: { description: 'To GitHub to sign in.' } }, errors: [400, 404, 503],
  },
  {
    method: 'post', path: '/signout', tag: 'auth', summary: 'Sign out of the inspector', auth: 'none',
    description: 'A plain form of the inspector\u2019s pages. A post from another origin (`Origin` header) is refused 403.',
    responses: { 303: { description: 'The session is gone; to the task list, which asks to sign in.' } }, errors: [403, 503],
  },
];

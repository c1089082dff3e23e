/**
 * @module cli/mcp-knowledge
 * The knowledge tools of `groundwork mcp`: a local repository has no knowledge store, so they go
 * to the Groundwork service named by `--service` with the caller's token, through the REST API
 * (the service checks and scopes everything as for any REST caller); without one they say they
 * are not available here. Every request has a deadline; a failure is said, never an empty list.
 */
import * as z from 'zod';
import { KnowledgeSchema } from '../context/knowledge.ts';
import { utcDate } from '../lib/utc-date.ts';
import { knowledgeAnswer, recallAnswer } from '../mcp/answers.ts';
import { refusal, type GroundworkBackend, type ToolAnswer } from '../mcp/backend.ts';

export interface KnowledgeService {
  /** The service's base URL (`https://groundwork.example.com`). */
  url: string;
  token: string;
  fetch?: typeof fetch;
}

type KnowledgeTools = Pick<GroundworkBackend, 'today' | 'remember' | 'recall' | 'retireKnowledge'>;

const REQUEST_DEADLINE_MS = 15_000;
const ListSchema = z.object({ items: z.array(KnowledgeSchema), nextCursor: z.string().nullable() });
const ErrorSchema = z.object({ error: z.object({ message: z.string() }) });

export function localKnowledgeTools(service: KnowledgeService | undefined, now: () => number = Date.now): KnowledgeTools {
  const today = () => utcDate(now());
  if (!service) {
    const absent = (): Promise<ToolAnswer> =>
      Promise.resolve(refusal('not available locally: knowledge lives on a Groundwork service; start `groundwork mcp --service URL` with GROUNDWORK_TOKEN set to use it', { status: 'not-available' }));
    return { today, remember: absent, recall: absent, retireKnowledge: absent };
  }
  const call = async (method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ ok: true; json: unknown } | { ok: false; answer: ToolAnswer }> => {
    const url = new URL(path, service.url);
    let response: Response;
    try {
      response = await (service.fetch ?? fetch)(url, {
        method,
        headers: { authorization: `Bearer ${service.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(REQUEST_DEADLINE_MS),
      });
    } catch (error) {
      return { ok: false, answer: refusal(`the service at ${url.origin} did not answer: ${error instanceof Error ? error.message : String(error)}`, { status: 'unreachable' }) };
    }
    const json: unknown = await response.json().catch(() => undefined);
    if (response.ok) return { ok: true, json };
    const said = ErrorSchema.safeParse(json);
    return { ok: false, answer: refusal(said.success ? said.data.error.message : `the service answered ${response.status}`, { status: 'failed', httpStatus: response.status }) };
  };
  return {
    today,
    async remember(args) {
      // Parsed with the REST schema already (defaults applied); the service parses it again.
      const result = await call('POST', '/knowledge', args);
      return result.ok ? knowledgeAnswer('recorded', KnowledgeSchema.parse(result.json)) : result.answer;
    },
    async recall(args) {
      const query = new URLSearchParams({ repo: args.repo, ...(args.status ? { status: args.status } : {}), ...(args.cursor ? { cursor: args.cursor } : {}), ...(args.limit ? { limit: String(args.limit) } : {}) });
      const result = await call('GET', `/knowledge?${query}`);
      if (!result.ok) return result.answer;
      const page = ListSchema.parse(result.json);
      return recallAnswer(args.repo, page.items, page.nextCursor);
    },
    async retireKnowledge({ id, reason }) {
      const result = await call('POST', `/knowledge/${encodeURIComponent(id)}/retire`, { reason });
      return result.ok ? knowledgeAnswer('retired', KnowledgeSchema.parse(result.json)) : result.answer;
    },
  };
}

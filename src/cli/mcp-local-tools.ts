/**
 * @module cli/mcp-local-tools
 * What `groundwork mcp` offers of the MCP server's tool catalog (mcp/server), and how its inputs
 * differ from the service's, as one layer around the shared server:
 * - Only tools that work here are listed and callable: the mailbox (`post_followup`) and later
 *   turns (`context_for_paths`) belong to a task on a service; the knowledge tools are offered
 *   only with `--service`, which is where knowledge lives.
 * - `assemble_context`'s `repo` is optional and means the repository the server was started in
 *   (its working directory, or `--repo`); a plain path (absolute, or relative to that directory)
 *   or a `file://` URL names another. The call reaches the shared server as the `file:///` URL its
 *   schema takes, so every other field is checked exactly as on the service.
 * - `check_before` takes the actions a local repository can answer (push, report-ci).
 * - Every argument of every listed tool has a description (added here where the shared schema
 *   has none), so a model knows what to pass.
 * - The server's instructions name only the tools listed.
 * Everything else (resources, other methods, results) passes through unchanged.
 */
import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { errorAnswer, RPC, type JsonRpcAnswer, type JsonRpcId, type JsonRpcMessage } from '../mcp/json-rpc.ts';
import { requestEra } from '../mcp/request-era.ts';
import { modernResult, type GroundworkMcpServer } from '../mcp/server.ts';
import type { ToolName } from '../mcp/tools.ts';
import { LOCAL_CHECK_ACTIONS } from './local-checks.ts';

export interface LocalToolOptions {
  /** The repository `assemble_context` reads when `repo` is not given: an absolute path. */
  repo: string;
  /** Whether the knowledge tools go to a service (`--service`). */
  knowledge: boolean;
}

const ALWAYS: readonly ToolName[] = ['assemble_context', 'get_turn', 'check_freshness', 'check_before', 'read_skill', 'rules_for_paths'];
const KNOWLEDGE: readonly ToolName[] = ['remember', 'recall', 'retire_knowledge'];

/** What each argument means, for the arguments the shared schemas leave undescribed. */
const DESCRIPTIONS: Partial<Record<ToolName, Record<string, string>>> = {
  assemble_context: {
    ref: 'Branch, tag or commit to read the repository at (default HEAD, what is checked out).',
    commit: 'The commit ref resolved to, when you already know it; give ref as well.',
    cwd: "Working directory inside the repository, from its root ('' or omitted: the root); the rules along it are read.",
    paths: 'Files or directories the task will touch besides cwd, from the repository root; their directories\' rules are read too.',
    request: 'The task, in the words of whoever asked for it.',
    skills: 'Skills to include in full, by name (as the skills index lists them) or by directory.',
    agent: 'The Groundwork agent configuration to assemble for (default entry).',
    tools: 'Narrow the agent\'s tools to these names.',
    facts: 'Facts the host states about this run (title, body, freshness, source), shown to the model as the host\'s.',
    trusted: 'false: the task reads no repository content (default true).',
  },
  get_turn: {
    turn: 'The turn to read; a local task has turn 0 only.',
    format: 'Give the whole request body a model API takes instead of the context: anthropic, openai-responses or openai-chat.',
  },
  check_before: {
    action: 'push: has the branch\'s upstream moved from the commit you built on (as the last git fetch saw it)? report-ci: did CI pass on the commit on GitHub, and is it still the head?',
    commit: 'push: the commit your work was built on; report-ci: the commit whose CI you would report (default: the task\'s commit).',
    branch: 'push: the branch you would push (default: the one checked out); report-ci: the branch on GitHub the commit must head.',
  },
  read_skill: { name: 'The skill, as the task\'s skills index names it, or its directory.' },
  remember: {
    repo: 'The repository on the Groundwork service, as owner/name or its git URL.',
    kind: 'fact (default), decision, playbook or task-summary.',
    statement: 'One statement the team should know next time.',
    source: 'Where it is supported: uri, and path and revision to make it checkable against a commit.',
    paths: 'Paths it applies to, from the repository root.',
    reviewBy: 'When to review it again (YYYY-MM-DD; default 90 days from today).',
  },
  recall: {
    repo: 'The repository on the Groundwork service, as owner/name or its git URL.',
    status: 'Only active, retired, or due (for review) knowledge.',
    cursor: 'The cursor an earlier recall answered, for the next page.',
    limit: 'At most this many (default 50).',
  },
  retire_knowledge: { reason: 'Why it no longer holds.' },
};

const instructions = (knowledge: boolean) =>
  `Groundwork assembles the context a coding agent should start a task from: the repository's rules (AGENTS.md and the like along the working directory) and its skills, each labeled with path@commit, read from a repository on this machine.
Call assemble_context once at the start of a task, with the task's request (repo defaults to the repository this server runs in); read what it returns before you plan. Before pushing or reporting CI, call check_before with that action; check_freshness says which rules and skill files changed since. Read a skill the index lists with read_skill; rules_for_paths says which rule files apply to some paths and which coding agents see them.${knowledge ? ' remember records what the team should know next time (with its source); recall lists it.' : ''}`;

export function localToolSet(server: GroundworkMcpServer, options: LocalToolOptions): GroundworkMcpServer {
  const offered = new Set<string>([...ALWAYS, ...(options.knowledge ? KNOWLEDGE : [])]);
  // The shared server answers every tools/list of a day with the same array (mcp/tool-methods):
  // what is made of it here is made once, not per call (issue 56: a tools/list under 1 ms of CPU).
  // The result is frozen, all of it, so the stdio transport serialises it once (cli/mcp-stdio).
  const listings = new WeakMap<object, Map<string, Readonly<Record<string, unknown>>>>();
  const localResult = (result: Record<string, unknown>): Record<string, unknown> => {
    const { tools, ...rest } = result;
    if (typeof tools !== 'object' || tools === null) return { ...result, tools: listed(tools, offered, options.repo) };
    // The rest is the era's cache hints (a few bytes): the same tools, other hints, another result.
    const hints = JSON.stringify(rest);
    let byHints = listings.get(tools);
    if (!byHints) {
      byHints = new Map();
      listings.set(tools, byHints);
    }
    let local = byHints.get(hints);
    if (!local) {
      local = deepFreeze({ ...result, tools: listed(tools, offered, options.repo) });
      byHints.set(hints, local);
    }
    return local;
  };
  return {
    async answer(message) {
      if (message.kind !== 'request') return server.answer(message);
      const { id, method, params } = message.request;
      if (method === 'tools/call') {
        let modern: boolean;
        try {
          modern = requestEra(method, params).era === 'modern';
        } catch {
          // A request whose `_meta` cannot be served: the shared server answers the protocol's error.
          return server.answer(message);
        }
        const name = typeof params?.['name'] === 'string' ? params['name'] : '';
        if (!offered.has(name)) return errorAnswer(id, RPC.invalidParams, `Unknown tool: ${name.slice(0, 100)}; this server's tools are ${[...offered].join(', ')}`);
        if (name === 'assemble_context') {
          const args = isRecord(params?.['arguments']) ? params['arguments'] : {};
          const repo = localRepo(args['repo'], options.repo);
          if (!repo.ok) return toolError(id, name, repo.error, modern);
          return server.answer(withParams(message, { ...params, arguments: { ...args, repo: repo.url } }));
        }
        return server.answer(message);
      }
      const answer = await server.answer(message);
      if (answer === undefined || !('result' in answer)) return answer;
      if (method === 'tools/list') return { ...answer, result: localResult(answer.result) };
      if ('instructions' in answer.result) return { ...answer, result: { ...answer.result, instructions: instructions(options.knowledge) } };
      return answer;
    },
  };
}

type LocalRepo = { ok: true; url: string } | { ok: false; error: string };

/** `repo` as the shared schema takes it: a `file:///` URL of a path on this machine. */
function localRepo(value: unknown, fallback: string): LocalRepo {
  if (value === undefined || value === null) return { ok: true, url: pathToFileURL(fallback).href };
  if (typeof value !== 'string' || value.trim() === '') return { ok: false, error: 'repo: must be a path on this machine (or omitted: the repository this server runs in)' };
  const text = value.trim();
  if (/^file:/i.test(text)) return { ok: true, url: text };
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) return { ok: false, error: `repo: the local server reads repositories on this machine: give a path, or omit repo for ${fallback} (${text.slice(0, 100)} is for a Groundwork service's /mcp)` };
  const path = isAbsolute(text) ? text : resolve(fallback, text);
  if (!existsSync(path)) {
    const service = /^[\w.-]+\/[\w.-]+$/.test(text) ? `; owner/name is for a Groundwork service's /mcp` : '';
    return { ok: false, error: `repo: there is no ${path} on this machine (a relative path is read from ${fallback}${service})` };
  }
  return { ok: true, url: pathToFileURL(path).href };
}

/** The offered tools, with `repo` optional, the local actions, and a description on every argument. */
function listed(tools: unknown, offered: ReadonlySet<string>, repo: string): unknown[] {
  if (!Array.isArray(tools)) return [];
  return tools.filter((tool): tool is Record<string, unknown> => isRecord(tool) && offered.has(String(tool['name']))).map((tool) => {
    const name = String(tool['name']) as ToolName;
    const schema = isRecord(tool['inputSchema']) ? tool['inputSchema'] : {};
    const properties: Record<string, unknown> = { ...(isRecord(schema['properties']) ? schema['properties'] : {}) };
    let required = Array.isArray(schema['required']) ? schema['required'].filter((field) => typeof field === 'string') : [];
    if (name === 'assemble_context') {
      properties['repo'] = { type: 'string', minLength: 1, description: `The repository to read: a path on this machine (absolute, or relative to ${repo}) or a file:// URL. Omit it for ${repo}, the repository this server runs in.` };
      required = required.filter((field) => field !== 'repo');
    }
    if (name === 'check_before') {
      properties['action'] = { ...(isRecord(properties['action']) ? properties['action'] : {}), enum: [...LOCAL_CHECK_ACTIONS] };
      // A pull request's base is a service task's; a local task has none.
      delete properties['stopIfBaseMoved'];
    }
    for (const [field, description] of Object.entries(DESCRIPTIONS[name] ?? {})) {
      const property = properties[field];
      if (isRecord(property) && typeof property['description'] !== 'string') properties[field] = { ...property, description };
    }
    return { ...tool, inputSchema: { ...schema, properties, required } };
  });
}

/** A refusal as the shared server words one, in the request's era (2026-07-28 results say their type and the server). */
function toolError(id: JsonRpcId, tool: string, text: string, modern: boolean): JsonRpcAnswer {
  const result = { content: [{ type: 'text', text: `Invalid arguments for tool ${tool}: ${text}` }], isError: true };
  return { jsonrpc: '2.0', id, result: modern ? modernResult(result) : result };
}

function withParams(message: Extract<JsonRpcMessage, { kind: 'request' }>, params: Record<string, unknown>): JsonRpcMessage {
  return { kind: 'request', request: { ...message.request, params } };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `value` and everything in it made read-only (JSON: objects and arrays). */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

/**
 * @module deployment-agents
 * The deployment's own agents: `agents.json` at the project root, bundled into the Worker (and
 * the CLI) when it is built, validated once, declared over the built-ins (see
 * context/agent-catalog). A file, not an environment variable, because a real agent's tool
 * catalog (descriptions and JSON Schemas) is tens of kilobytes and a Workers variable holds 5 KB;
 * and because the catalog is code-like: it changes with a deploy, reviewed like code.
 *
 * @example
 * const loaded = loadDeploymentAgents();
 * if (!loaded.ok) console.error(loaded.issues.join('; '));
 */
import declared from '../agents.json' with { type: 'json' };
import { AgentsFileSchema, createAgentCatalog, type AgentCatalog } from './context/agent-catalog.ts';
import { fieldPath } from './context/zod-issues.ts';
import { isPlainObject } from './lib/plain-object.ts';

/** How the file is named in errors. */
export const AGENTS_FILE = 'agents.json';

export type AgentsLoad = { ok: true; catalog: AgentCatalog } | { ok: false; issues: Array<{ field: string; message: string }> };

const loaded = new WeakMap<object, AgentsLoad>();

/** The catalog from `file` (the bundled agents.json unless told otherwise), parsed once per file object. */
export function loadDeploymentAgents(file: object = declared): AgentsLoad {
  const cached = loaded.get(file);
  if (cached) return cached;
  // A file that declares no agents (the bundled one, unless a deployment adds its own) gives the
  // built-ins, as its parse would, without building the file's schema: a CLI run loads it every time.
  if (declaresNone(file)) {
    const none: AgentsLoad = { ok: true, catalog: createAgentCatalog([]) };
    loaded.set(file, none);
    return none;
  }
  const parsed = AgentsFileSchema.safeParse(file);
  const result: AgentsLoad = parsed.success
    ? { ok: true, catalog: createAgentCatalog(parsed.data.agents) }
    : { ok: false, issues: parsed.error.issues.map((issue) => ({ field: `${AGENTS_FILE} ${fieldPath('', issue.path)}`, message: issue.message })) };
  loaded.set(file, result);
  return result;
}

/** Exactly `{ "agents": [] }`: a plain object whose one key holds an empty list. Anything else is the schema's to judge. */
function declaresNone(file: object): boolean {
  if (!isPlainObject(file)) return false;
  const keys = Reflect.ownKeys(file);
  const agents: unknown = keys.length === 1 && keys[0] === 'agents' ? Reflect.get(file, 'agents') : undefined;
  return Array.isArray(agents) && agents.length === 0;
}

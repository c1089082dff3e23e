/**
 * @module context/agent-catalog
 * The agents a deployment offers: the four built-ins, with the deployment's own declared over
 * them (one with a built-in's name replaces it, so a host can give the GitHub trigger's
 * `reviewer` its own tools), and what a task may do with one: name it, and narrow the tools it
 * is shown to a subset by name, never add one. Everything here is host-owned; no repository,
 * pull request or message ever reaches it.
 *
 * An agent's hash (`agentHash`) names the exact configuration a turn was assembled with, tools
 * and instructions included: the turn JSON and the inspector show it, and the digest covers it.
 *
 * @example
 * const catalog = createAgentCatalog(AgentsFileSchema.parse(file).agents);
 * const agent = resolveAgent('reviewer', catalog);
 * const shown = agent.ok ? narrowTools(agent.agent, ['read_file']) : agent;
 */
import * as z from 'zod';
import { lazySchema } from '../lib/lazy-schema.ts';
import { sha256Hex } from '../lib/sha256.ts';
import { deepFreeze } from '../lib/deep-freeze.ts';
import { AgentConfigSchema, BUILTIN_AGENTS, type AgentConfig } from './agents.ts';
import type { ProviderSelection } from './provider-selection.ts';

export const MAX_DECLARED_AGENTS = 32;
/**
 * The whole file, as JSON. Each agent's own bounds allow some 290 KB, and 32 of them 9.4 MB: a
 * file the Worker's upload (3 MB compressed on the free plan) and its one second of start-up (the
 * file is parsed with the entry module, before the first request) cannot take. A megabyte holds
 * three agents at their bounds, or dozens of real ones.
 */
export const MAX_AGENTS_FILE_BYTES = 1_048_576;

/** The deployment's agents file: `{ "agents": [ <agent configuration>, … ] }`. */
export const AgentsFileSchema = lazySchema(() => z.strictObject({
  agents: z
    .array(AgentConfigSchema)
    .max(MAX_DECLARED_AGENTS)
    .superRefine((agents, ctx) => {
      const seen = new Set<string>();
      agents.forEach((agent, index) => {
        if (seen.has(agent.name)) ctx.addIssue({ code: 'custom', path: [index, 'name'], message: `"${agent.name}" is declared twice` });
        seen.add(agent.name);
      });
      const bytes = new TextEncoder().encode(JSON.stringify(agents)).length;
      if (bytes > MAX_AGENTS_FILE_BYTES) ctx.addIssue({ code: 'custom', message: `are ${bytes} bytes as JSON, over ${MAX_AGENTS_FILE_BYTES}: the file is bundled into the Worker and parsed when it starts` });
    }),
}));
export type AgentsFile = z.output<typeof AgentsFileSchema>;

export type AgentCatalog = ReadonlyMap<string, AgentConfig>;

/** Built-ins in their order (a declared one in its place), then the other declared agents in file order. */
export function createAgentCatalog(declared: readonly AgentConfig[]): AgentCatalog {
  const catalog = new Map(BUILTIN_AGENTS);
  for (const agent of declared) catalog.set(agent.name, deepFreeze(agent));
  return catalog;
}

export type AgentLookup = { ok: true; agent: AgentConfig } | { ok: false; error: string };

export function resolveAgent(name: string, catalog: AgentCatalog = BUILTIN_AGENTS): AgentLookup {
  const agent = catalog.get(name);
  if (agent) return { ok: true, agent };
  return { ok: false, error: `unknown agent "${name}"; known agents: ${[...catalog.keys()].join(', ')}` };
}

export type NarrowResult = { ok: true; agent: AgentConfig } | { ok: false; index: number; error: string };

/**
 * The agent as a task that named `names` is shown it: only those tools, in the catalog's order
 * (so two tasks naming one set in different orders send the same bytes). Without `names` the
 * agent is unchanged; a name the agent lacks is refused, naming its index.
 */
export function narrowTools(agent: AgentConfig, names: readonly string[] | undefined): NarrowResult {
  if (names === undefined) return { ok: true, agent };
  const known = new Set(agent.tools.map((tool) => tool.name));
  const unknown = names.findIndex((name) => !known.has(name));
  if (unknown !== -1) {
    const offered = agent.tools.map((tool) => tool.name).join(', ') || 'none';
    return { ok: false, index: unknown, error: `agent "${agent.name}" has no tool "${names[unknown]}"; a task may only narrow its tools (${offered})` };
  }
  const wanted = new Set(names);
  return { ok: true, agent: { ...agent, tools: agent.tools.filter((tool) => wanted.has(tool.name)) } };
}

/**
 * Hashes of frozen configurations: the catalog's and a stored task's are deep-frozen (lib/deep-freeze),
 * so they cannot change, and every turn asks.
 */
const frozenHashes = new WeakMap<AgentConfig, Promise<string>>();

/** `sha256:<hex>` of the configuration as parsed (schema key order), tools and instructions included. */
export function agentHash(agent: AgentConfig): Promise<string> {
  const known = frozenHashes.get(agent);
  if (known) return known;
  const hash = hashOf(agent);
  if (Object.isFrozen(agent)) frozenHashes.set(agent, hash);
  return hash;
}

/**
 * The built-ins, whose JSON is already what AgentConfigSchema makes of them, key order included
 * (test/context/agents holds them to it), and which are frozen: hashing one builds no schema. The
 * schema is some 40 zod objects built for nothing else on a CLI run or a session hook (issue 56).
 */
const canonical = new WeakSet<AgentConfig>(BUILTIN_AGENTS.values());

/**
 * `agent` with another provider selection (the CLI leaves out the providers a local run cannot
 * serve), frozen like the catalog's. A selection is `all`, names, or `{ except: names }`, which
 * the schema gives back as they are, in place of the old one: a built-in stays in the schema's
 * form, so its hash still builds no schema.
 */
export function withProviders(agent: AgentConfig, providers: ProviderSelection): AgentConfig {
  const derived = deepFreeze({ ...agent, providers });
  if (canonical.has(agent)) canonical.add(derived);
  return derived;
}

async function hashOf(agent: AgentConfig): Promise<string> {
  return `sha256:${await sha256Hex(JSON.stringify(canonical.has(agent) ? agent : AgentConfigSchema.parse(agent)))}`;
}

/**
 * @module tasks/task-agent
 * The agent configuration a task is created with: the agent it names, from this deployment's
 * catalog, shown only the tools it narrowed to. Resolved once, when the task is created, and
 * kept with it, so every turn, retry and read-back of the task uses the configuration it began
 * with, even after a deploy changes the catalog.
 */
import { narrowTools, resolveAgent, type AgentCatalog } from '../context/agent-catalog.ts';
import type { AgentConfig } from '../context/agents.ts';
import type { TaskRequest } from './task-request.ts';

export type TaskAgent = { ok: true; agent: AgentConfig } | { ok: false; field: string; message: string };

export function taskAgent(catalog: AgentCatalog, request: Pick<TaskRequest, 'agent' | 'tools'>): TaskAgent {
  const found = resolveAgent(request.agent, catalog);
  if (!found.ok) return { ok: false, field: 'agent', message: found.error };
  const narrowed = narrowTools(found.agent, request.tools);
  if (!narrowed.ok) return { ok: false, field: `tools[${narrowed.index}]`, message: narrowed.error };
  return { ok: true, agent: narrowed.agent };
}

/**
 * @module durable-objects/stored-agent
 * The agent configuration a stored task runs with: the one it was created with, or, for a task
 * stored before configurations were kept, the one its name (and tool subset) resolves to in
 * this deployment's catalog now.
 */
import type { AgentCatalog } from '../src/context/agent-catalog.ts';
import type { AgentConfig } from '../src/context/agents.ts';
import { taskAgent } from '../src/tasks/task-agent.ts';
import type { TaskRow } from './task-store.ts';

export type StoredAgent = { ok: true; agent: AgentConfig } | { ok: false; error: string };

export function storedAgent(task: Pick<TaskRow, 'agent_config' | 'request'>, catalog: AgentCatalog): StoredAgent {
  if (task.agent_config) return { ok: true, agent: task.agent_config };
  const resolved = taskAgent(catalog, task.request);
  return resolved.ok ? resolved : { ok: false, error: `${resolved.field}: ${resolved.message}` };
}

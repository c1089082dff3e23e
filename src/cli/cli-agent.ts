/**
 * @module cli/cli-agent
 * `--agent NAME` as every command resolves it: from the same catalog the Worker offers (the
 * built-ins with the bundled agents.json over them), so a local run sees the deployment's agents.
 */
import { resolveAgent, type AgentLookup } from '../context/agent-catalog.ts';
import { loadDeploymentAgents } from '../deployment-agents.ts';

export function cliAgent(name: string): AgentLookup {
  const loaded = loadDeploymentAgents();
  if (!loaded.ok) return { ok: false, error: `the bundled agents file is invalid: ${loaded.issues.map((issue) => `${issue.field}: ${issue.message}`).join('; ')}` };
  return resolveAgent(name, loaded.catalog);
}

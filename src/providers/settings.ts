/**
 * @module providers/settings
 * Settings checked before any assembly runs, against the default provider set: a deployment's
 * `PROVIDER_CONFIG` (at config parse) and a task's `providers` (when the task is created). The
 * repository's `.groundwork.yml` is checked at assembly, by `context/settings`.
 */
import type { CapProblem } from '../context/settings/caps.ts';
import { capLayer, deploymentCapProblems } from '../context/settings/caps.ts';
import { layerSchemaOf, type SettingsLayer } from '../context/settings/layer.ts';
import { createDefaultRegistry } from './registry.ts';

const registry = createDefaultRegistry();

/** A task's `providers`: the shapes of each provider's settings; caps need the deployment (`taskSettingsProblems`). */
export const TaskSettingsSchema = layerSchemaOf(registry);

/** `PROVIDER_CONFIG`: the deployment is the host and may set any field, but no budget above what a provider declares. */
export const DeploymentSettingsSchema = layerSchemaOf(registry).superRefine((layer, ctx) => {
  for (const problem of deploymentCapProblems(registry, layer)) ctx.addIssue({ code: 'custom', path: problem.path.split('.'), message: problem.message });
});

/** Fields of a task's settings above this deployment's caps; a task asks, it cannot raise a cap. */
export function taskSettingsProblems(deployment: SettingsLayer, task: SettingsLayer): CapProblem[] {
  return capLayer(registry, deployment, task).problems;
}

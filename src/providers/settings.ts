/**
 * @module providers/settings
 * Settings checked before any assembly runs, against the default provider set: a deployment's
 * `PROVIDER_CONFIG` (at config parse) and a task's `providers` (when the task is created). The
 * repository's `.groundwork.yml` is checked at assembly, by `context/settings`.
 */
import * as z from 'zod';
import type { CapProblem } from '../context/settings/caps.ts';
import { capLayer, deploymentCapProblems } from '../context/settings/caps.ts';
import { layerSchemaOf, type SettingsLayer } from '../context/settings/layer.ts';
import { lazySchema } from '../lib/lazy-schema.ts';
import { once } from '../lib/once.ts';
import { createDefaultRegistry } from './registry.ts';

// Built when settings are first checked: creating the providers and checking their schemas is
// start-up work an isolate that never validates settings would otherwise pay (issue 28).
const registry = once(createDefaultRegistry);

/** A task's `providers`: the shapes of each provider's settings; caps need the deployment (`taskSettingsProblems`). */
export const TaskSettingsSchema = lazySchema(() => layerSchemaOf(registry()));

/** `PROVIDER_CONFIG`: the deployment is the host and may set any field, but no budget above what a provider declares. */
export const DeploymentSettingsSchema = lazySchema(() =>
  layerSchemaOf(registry()).superRefine((layer, ctx) => {
    for (const problem of deploymentCapProblems(registry(), layer)) ctx.addIssue({ code: 'custom', path: problem.path.split('.'), message: problem.message });
  }),
);

/** Fields of a task's settings above this deployment's caps; a task asks, it cannot raise a cap. */
export function taskSettingsProblems(deployment: SettingsLayer, task: SettingsLayer): CapProblem[] {
  return capLayer(registry(), deployment, task).problems;
}

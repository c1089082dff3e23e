/**
 * @module providers/settings
 * Settings checked before any assembly runs, against the default provider set: a deployment's
 * `PROVIDER_CONFIG` (at config parse) and a task's `providers` (when the task is created). The
 * repository's `.groundwork.yml` is checked at assembly, by `context/settings`. Only the
 * providers' settings are read (each provider's `settings.ts`), not the providers: every request
 * parses the configuration, and loading every provider to check it would make each cold isolate
 * evaluate the assembly code (issue 28).
 */
import type { CapProblem } from '../context/settings/caps.ts';
import { capLayer, deploymentCapProblems } from '../context/settings/caps.ts';
import { layerSchemaOf, type SettingsLayer } from '../context/settings/layer.ts';
import { createSettingsRegistry } from '../context/registry.ts';
import { lazySchema } from '../lib/lazy-schema.ts';
import { once } from '../lib/once.ts';
import { freshnessSettings } from './freshness/settings.ts';
import { historySettings } from './history/settings.ts';
import { hostSettings } from './host/settings.ts';
import { memorySettings } from './memory/settings.ts';
import { rulesSettings } from './rules/settings.ts';
import { skillsSettings } from './skills/settings.ts';
import { systemSettings } from './system/settings.ts';
import { taskFactsSettings } from './task-facts/settings.ts';

/**
 * The default provider set's settings (registry.ts builds the providers from the same
 * declarations; test/providers/settings-registry.test.ts holds the two equal). Built when settings
 * are first checked.
 */
export const defaultSettings = once(() =>
  createSettingsRegistry([systemSettings(), hostSettings(), taskFactsSettings(), freshnessSettings(), rulesSettings(), skillsSettings(), memorySettings(), historySettings()]),
);

/** A task's `providers`: the shapes of each provider's settings; caps need the deployment (`taskSettingsProblems`). */
export const TaskSettingsSchema = lazySchema(() => layerSchemaOf(defaultSettings()));

/** `PROVIDER_CONFIG`: the deployment is the host and may set any field, but no budget above what a provider declares. */
export const DeploymentSettingsSchema = lazySchema(() =>
  layerSchemaOf(defaultSettings()).superRefine((layer, ctx) => {
    for (const problem of deploymentCapProblems(defaultSettings(), layer)) ctx.addIssue({ code: 'custom', path: problem.path.split('.'), message: problem.message });
  }),
);

/** Fields of a task's settings above this deployment's caps; a task asks, it cannot raise a cap. */
export function taskSettingsProblems(deployment: SettingsLayer, task: SettingsLayer): CapProblem[] {
  return capLayer(defaultSettings(), deployment, task).problems;
}

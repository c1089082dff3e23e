/**
 * @module context/settings/settle
 * Decides the settings of one run: the host's layers (deployment, task) as given, plus the
 * repository's `.groundwork.yml` when this run may read the repository at all. An untrusted
 * task, an agent without `repo:read`, or a snapshot not pinned at the task's commit reads no
 * file, and neither does a turn on which no provider runs. A file that is not valid is a warning
 * and changes nothing; the other layers apply. A file that could not be read is different: the
 * repository's settings are unknown, so the providers that read the repository fail with that
 * reason rather than read it with settings that may not be its own (e.g. other skills roots).
 */
import type { Snapshot } from '../../sources/snapshot.ts';
import { NOT_MOVED, type Moved } from '../provider.ts';
import { runsOnTurn } from '../turn-policy.ts';
import { selects, type ProviderSelection } from '../provider-selection.ts';
import type { Registry } from '../registry.ts';
import type { ProviderSetup } from '../runner.ts';
import { layerSchemaOf, type SettingsLayer } from './layer.ts';
import { readRepositorySettings } from './repository-file.ts';
import { LAYER_LABELS, type LayerReport, type SettingsReport } from './report.ts';
import { resolveSettings } from './resolve.ts';

/** The layers a host hands over; the repository's is read here. */
export interface HostSettings {
  deployment?: SettingsLayer;
  task?: SettingsLayer;
}

export interface SettleInput {
  registry: Registry;
  selection: ProviderSelection;
  turn: number;
  /** What is new on this turn, which wakes `turns: 'moved'` providers. */
  moved?: Moved;
  settings?: HostSettings;
  /** The snapshot repository readers get in this run, or why they get none. */
  repository: { snapshot: Snapshot } | { withheld: string };
  signal?: AbortSignal;
  timeoutMs?: number;
}

export interface Settled {
  setups: Record<string, ProviderSetup>;
  report: SettingsReport;
}

export async function settleSettings(input: SettleInput): Promise<Settled> {
  const { registry, selection, turn, settings = {} } = input;
  const selected = registry.providers.filter((provider) => selects(selection, provider.name));
  const hostLayer = (layer: 'deployment' | 'task', value: SettingsLayer | undefined): LayerReport => {
    if (!value || Object.keys(value).length === 0) return { layer, status: 'none' };
    return layer === 'deployment' ? { layer, status: 'applied', source: LAYER_LABELS.deployment } : { layer, status: 'applied' };
  };

  let repositoryLayer: SettingsLayer | undefined;
  let repository: LayerReport;
  let unreadable: string | undefined;
  const warnings: string[] = [];
  if ('withheld' in input.repository) {
    repository = { layer: 'repository', status: 'not-read', reason: input.repository.withheld };
  } else if (!selected.some((provider) => runsOnTurn(provider.turns, turn, input.moved ?? NOT_MOVED))) {
    repository = { layer: 'repository', status: 'not-read', reason: `no provider runs on turn ${turn}` };
  } else {
    const read = await readRepositorySettings(input.repository.snapshot, () => layerSchemaOf(registry), {
      ...(input.signal ? { signal: input.signal } : {}),
      ...(input.timeoutMs === undefined ? {} : { timeoutMs: input.timeoutMs }),
    });
    if (read.status === 'applied') {
      repositoryLayer = read.layer;
      warnings.push(...read.warnings);
    }
    if (read.status === 'ignored') warnings.push(`${read.reason}; the other settings apply`);
    if (read.status === 'failed') {
      unreadable = read.reason;
      warnings.push(`${read.reason}; the providers that read the repository did not run without it`);
    }
    repository = { layer: 'repository', status: read.status, ...('source' in read ? { source: read.source } : {}), ...('reason' in read ? { reason: read.reason } : {}) };
  }

  const resolved = resolveSettings({
    registry,
    selection,
    layers: {
      ...(settings.deployment ? { deployment: settings.deployment } : {}),
      ...(repositoryLayer ? { repository: repositoryLayer } : {}),
      ...(settings.task ? { task: settings.task } : {}),
    },
  });
  if (unreadable !== undefined) {
    for (const provider of selected) {
      const setup = resolved.setups[provider.name];
      if (setup && provider.requires.includes('repo:read')) setup.unsettled = unreadable;
    }
  }
  return {
    setups: resolved.setups,
    report: {
      layers: [hostLayer('deployment', settings.deployment), repository, hostLayer('task', settings.task)],
      providers: resolved.providers,
      warnings: [...warnings, ...resolved.warnings],
    },
  };
}

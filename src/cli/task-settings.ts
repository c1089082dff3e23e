/**
 * @module cli/task-settings
 * The CLI's provider options as a task settings layer, validated by the same provider schemas
 * as the `providers` of `POST /tasks`; a bad value names its option.
 */
import type { Registry } from '../context/registry.ts';
import { layerSchemaOf, type SettingsLayer } from '../context/settings/layer.ts';
import type { CliOptions } from './args.ts';

/** Layer field -> the option that sets it. */
const OPTIONS: ReadonlyArray<{ provider: string; field: string; option: 'skills-root' | 'rule-file' }> = [
  { provider: 'skills', field: 'roots', option: 'skills-root' },
  { provider: 'rules', field: 'filenames', option: 'rule-file' },
];

export type CliSettings = { ok: true; layer: SettingsLayer } | { ok: false; error: string };

export function cliTaskSettings(options: Pick<CliOptions, 'skills-root' | 'rule-file'>, registry: Registry): CliSettings {
  const raw: Record<string, Record<string, string[]>> = {};
  for (const { provider, field, option } of OPTIONS) {
    const values = options[option];
    if (values.length > 0) raw[provider] = { ...raw[provider], [field]: values };
  }
  const parsed = layerSchemaOf(registry).safeParse(raw);
  if (parsed.success) return { ok: true, layer: parsed.data };
  const issue = parsed.error.issues[0];
  const [provider, field, index] = issue?.path ?? [];
  const named = OPTIONS.find((entry) => entry.provider === provider && entry.field === field);
  const value = typeof index === 'number' && named ? ` ${options[named.option][index] ?? ''}` : '';
  return { ok: false, error: `--${named?.option ?? String(provider)}${value}: ${issue?.message ?? 'invalid value'}` };
}

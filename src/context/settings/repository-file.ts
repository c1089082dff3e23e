/**
 * @module context/settings/repository-file
 * A repository's own settings, `.groundwork.yml` at the root, read at the task's pinned commit
 * (a pull request's trusted base) through the task's snapshot, under a deadline. The file is
 * repository text, so it is hostile until proven otherwise: bounded in size, YAML 1.2 whatever
 * a `%YAML` directive says (`enabled: off` is text, so the schema refuses it; the directive is a
 * warning), without aliases (no entity-expansion bombs) or duplicate keys, and a strict schema, so an unknown field
 * (`capabilities`, `tools`, `trusted`) makes the file invalid rather than quietly ignored. An
 * invalid file is not applied at all; the reason names the field.
 *
 * @example
 * # .groundwork.yml
 * providers:
 *   skills: { roots: [".opencode/skills/*"] }
 *   rules: { filenames: [GEMINI.md, AGENTS.md] }
 */
import * as z from 'zod';
import { parseYaml12 } from '../../lib/yaml-1.2.ts';
import type { ReadResult, Snapshot } from '../../sources/snapshot.ts';
import { withDeadline, type Deadlined } from '../deadline.ts';
import { fieldPath } from '../zod-issues.ts';
import type { SettingsLayer } from './layer.ts';
import { REPOSITORY_SETTINGS_FILE } from './report.ts';

/** Bytes read of the file; a settings file has no reason to be larger. */
export const MAX_SETTINGS_BYTES = 16 * 1024;
/** The read's own deadline for a host that gives no signal of its own (the CLI). */
export const SETTINGS_READ_TIMEOUT_MS = 3_000;
/** Problems named in one reason; the rest are counted. */
const MAX_NAMED_ISSUES = 5;

export type RepositorySettings =
  /** `warnings`: what the file asked for and did not get (a `%YAML 1.1` directive), for the settings report. */
  | { status: 'applied'; layer: SettingsLayer; source: string; warnings: string[] }
  | { status: 'none'; reason: string }
  | { status: 'ignored'; source: string; reason: string }
  | { status: 'failed'; reason: string };

export interface ReadSettingsOptions {
  /**
   * The attempt's signal. Given without `timeoutMs`, the read waits under it alone: a repository's
   * settings are not optional, and the read often shares the snapshot's read-ahead, which takes
   * as long as it takes under load; the attempt's own deadline bounds both.
   */
  signal?: AbortSignal;
  timeoutMs?: number;
}

/**
 * `layerSchema` gives the deployment's provider set's (see `settingsLayerSchema`), asked for only
 * when there is a file to check: most repositories have none, and zod's schema objects are the
 * larger part of a short-lived command's settings step (issue 56).
 */
export async function readRepositorySettings(snapshot: Snapshot, layerSchema: () => z.ZodType<SettingsLayer, unknown>, options: ReadSettingsOptions = {}): Promise<RepositorySettings> {
  const timeoutMs = options.timeoutMs ?? (options.signal ? undefined : SETTINGS_READ_TIMEOUT_MS);
  const readFile = (signal: AbortSignal | undefined) => snapshot.read(REPOSITORY_SETTINGS_FILE, { maxBytes: MAX_SETTINGS_BYTES, ...(signal ? { signal } : {}) });
  const read = timeoutMs === undefined ? await underSignal(readFile, options.signal) : await withDeadline(readFile, timeoutMs, { signal: options.signal });
  if (read.kind !== 'returned') {
    const why = read.kind === 'timed-out' ? `no answer within ${timeoutMs} ms` : read.kind === 'aborted' ? `aborted: ${read.reason}` : read.reason;
    return { status: 'failed', reason: `${REPOSITORY_SETTINGS_FILE} could not be read: ${why}` };
  }
  const file = read.value;
  const source = `${REPOSITORY_SETTINGS_FILE}@${snapshot.commit}`;
  if (file.status === 'missing') return { status: 'none', reason: `no ${REPOSITORY_SETTINGS_FILE} at this commit` };
  if (file.status === 'failed') return { status: 'failed', reason: `${REPOSITORY_SETTINGS_FILE} could not be read: ${file.reason}` };
  if (file.status !== 'ok') return { status: 'ignored', source, reason: `${REPOSITORY_SETTINGS_FILE} ignored: ${unreadable(file)}` };
  if (file.truncated) return { status: 'ignored', source, reason: `${REPOSITORY_SETTINGS_FILE} ignored: it is ${file.size} bytes, more than the ${MAX_SETTINGS_BYTES} a settings file may have` };

  const parsed = parseSettingsText(file.text, layerSchema());
  const notes = parsed.warnings.map((warning) => `${REPOSITORY_SETTINGS_FILE}: ${warning}`);
  if (!parsed.ok) return { status: 'ignored', source, reason: `${REPOSITORY_SETTINGS_FILE} ignored: ${[parsed.reason, ...parsed.warnings].join('; ')}` };
  if (Object.keys(parsed.layer).length === 0) return { status: 'none', reason: [`${REPOSITORY_SETTINGS_FILE} sets nothing`, ...parsed.warnings].join('; ') };
  return { status: 'applied', layer: parsed.layer, source, warnings: notes };
}

/** `warnings`: what the text asked for and did not get (a `%YAML 1.1` directive), either way. */
export type ParsedSettings = ({ ok: true; layer: SettingsLayer } | { ok: false; reason: string }) & { warnings: string[] };

export function parseSettingsText(text: string, layerSchema: z.ZodType<SettingsLayer, unknown>): ParsedSettings {
  // No aliases at all (the reader's default): a settings file never needs them, and they are how YAML bombs expand.
  const parsed = parseYaml12(text);
  const warnings = parsed.warnings;
  if (!parsed.ok) return { ok: false, reason: `not valid YAML: ${parsed.message}${parsed.line === undefined ? '' : ` (line ${parsed.line})`}`, warnings };
  const data = parsed.data;
  const file = z.strictObject({ providers: layerSchema.optional() }).nullable().safeParse(data);
  if (!file.success) {
    const issues = file.error.issues.flatMap((issue) =>
      issue.code === 'unrecognized_keys'
        ? issue.keys.map((key) => `${fieldPath('', [...issue.path, key])}: unknown setting; the file takes only providers`)
        : [`${fieldPath('', issue.path)}: ${issue.message}`],
    );
    const more = issues.length > MAX_NAMED_ISSUES ? ` (and ${issues.length - MAX_NAMED_ISSUES} more)` : '';
    return { ok: false, reason: `${issues.slice(0, MAX_NAMED_ISSUES).join('; ')}${more}`, warnings };
  }
  return { ok: true, layer: file.data?.providers ?? {}, warnings };
}

/** The read under the caller's signal only, as `withDeadline` reports a step. */
async function underSignal(step: (signal: AbortSignal | undefined) => Promise<ReadResult>, signal: AbortSignal | undefined): Promise<Deadlined<ReadResult>> {
  try {
    return { kind: 'returned', value: await step(signal) };
  } catch (error) {
    const reason = error instanceof Error ? error.message || error.name : String(error);
    return signal?.aborted ? { kind: 'aborted', reason } : { kind: 'failed', reason };
  }
}

function unreadable(read: Exclude<ReadResult, { status: 'ok' | 'missing' | 'failed' }>): string {
  switch (read.status) {
    case 'not-a-file':
      return `it is a ${read.kind}, not a file`;
    case 'binary':
      return `it is not UTF-8 text (${read.reason})`;
    case 'unresolved-symlink':
      return `it is a symlink to ${read.target} that was not followed (${read.reason})`;
    case 'invalid-path':
    case 'skipped':
      return read.reason;
  }
}

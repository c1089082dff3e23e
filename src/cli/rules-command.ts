/**
 * @module cli/rules-command
 * `groundwork rules`: the rules matrix of a local repository's commit (providers/rules/rules-matrix,
 * the computation the check run and MCP `rules_for_paths` share) with its lints, for people (an
 * 80-column view) or machines (`--json`, context/rules-matrix's shape). The rules settings are the
 * ones a task on that commit would get: the repository's `.groundwork.yml` and `--rule-file`.
 * Exit 1 when a lint of severity error is found, so a repository can run it in CI.
 */
// First: it configures zod before any schema below is built.
import './zod-config.ts';
import { hasErrors } from '../context/rule-lint.ts';
import type { Registry } from '../context/registry.ts';
import { settleSettings } from '../context/settings/settle.ts';
import { createDefaultRegistry } from '../providers/registry.ts';
import { RulesConfigSchema } from '../providers/rules/config.ts';
import { rulesMatrix } from '../providers/rules/rules-matrix.ts';
import type { RepositorySource } from '../sources/snapshot.ts';
import type { CliIo } from './context-command.ts';
import { jsonOutput } from './json-output.ts';
import { openLocalRepository } from './open-local.ts';
import { parseRulesArgs, RULES_USAGE } from './rules-args.ts';
import { formatRulesMatrix } from './rules-view.ts';
import { cliTaskSettings } from './task-settings.ts';
import { terminalText } from './terminal-text.ts';

export const RULES_EXIT = { clean: 0, lintErrors: 1, unreadable: 1, usage: 2 } as const;

/** A local repository answers quickly; this only bounds a pathological one. */
const DEADLINE_MS = 60_000;
/** The whole repository's chains: more directories than one task's focus reads. */
const SCAN_MAX_DIRECTORIES = 1_024;

export interface RulesDeps {
  openSource?: (dir: string) => RepositorySource;
  registry?: Registry;
}

export async function runRulesCommand(argv: readonly string[], rawIo: CliIo, deps: RulesDeps = {}): Promise<number> {
  const stderr = (text: string): void => rawIo.stderr(terminalText(text));
  const parsed = parseRulesArgs(argv);
  if (!parsed.ok) {
    stderr(`groundwork rules: ${parsed.error}\n\n${RULES_USAGE}\n`);
    return RULES_EXIT.usage;
  }
  const { options } = parsed;
  const stdout = options.json ? rawIo.stdout : (text: string) => rawIo.stdout(terminalText(text));
  if (options.help) {
    stdout(`${RULES_USAGE}\n`);
    return RULES_EXIT.clean;
  }
  const registry = deps.registry ?? createDefaultRegistry();
  const layer = cliTaskSettings({ 'skills-root': [], 'rule-file': options['rule-file'] }, registry);
  if (!layer.ok) {
    stderr(`groundwork rules: ${layer.error}\n`);
    return RULES_EXIT.usage;
  }
  const opened = await openLocalRepository({ repo: options.repo, ref: options.ref, cwd: options.cwd, ...(deps.openSource ? { openSource: deps.openSource } : {}) });
  if (!opened.ok) {
    stderr(`groundwork rules: ${opened.error}\n`);
    return opened.exit === 2 ? RULES_EXIT.usage : RULES_EXIT.unreadable;
  }
  for (const warning of opened.warnings) stderr(`groundwork rules: warning: ${warning}\n`);
  const snapshot = opened.source.snapshot(opened.commit);
  const signal = AbortSignal.timeout(DEADLINE_MS);
  const settled = await settleSettings({ registry, selection: ['rules'], turn: 0, settings: { task: layer.layer }, repository: { snapshot }, signal });
  for (const warning of settled.report.warnings) stderr(`groundwork rules: warning: ${warning}\n`);
  const setup = settled.setups['rules'];
  if (setup?.unsettled !== undefined) {
    stderr(`groundwork rules: ${setup.unsettled}\n`);
    return RULES_EXIT.unreadable;
  }
  const config = RulesConfigSchema.parse(setup?.config ?? {});
  const scan = options.path.length === 0;
  const matrix = await rulesMatrix(snapshot, {
    cwd: opened.cwd,
    paths: options.path,
    scan,
    ...(options.clients.length > 0 ? { clients: options.clients } : {}),
    config: scan ? { ...config, maxDirectories: Math.max(config.maxDirectories, SCAN_MAX_DIRECTORIES) } : config,
    signal,
  });
  const damaged = opened.source.unreadable?.();
  if (damaged !== undefined) {
    stderr(`groundwork rules: cannot read ${opened.root}: ${damaged}\n`);
    return RULES_EXIT.unreadable;
  }
  stdout(options.json ? jsonOutput(matrix) : formatRulesMatrix(matrix, options.ref));
  return hasErrors(matrix.lints) ? RULES_EXIT.lintErrors : RULES_EXIT.clean;
}

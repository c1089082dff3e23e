/**
 * @module providers/rules/rules-matrix
 * The rules matrix for some paths at one commit: every rule file that applies to them (and every
 * file beside those that some client reads instead), Groundwork's verdict and each client's cell,
 * and the lints. One computation for every caller: `groundwork rules`, the check run's rules
 * report on a pull request, MCP `rules_for_paths`. It reads only the snapshot; the lints
 * (lints/lint-rules) are pure over what it gathered.
 *
 * The matrix is the rule set (rule-set.ts) of a task that works in `cwd` and touches `paths`, for
 * no particular client (`none`: Groundwork's own choice, the union), so every client's cell says
 * what that client loads by itself and what Groundwork would give it. Whether a client *ever*
 * loads a file is asked from every working directory the set holds, each file's own included: a
 * nested AGENTS.md that Codex loads when started beside it is not "loaded by no client".
 *
 * @example
 * const matrix = await rulesMatrix(snapshot, { cwd: '', paths: ['packages/wrangler/src/index.ts'], clients: ['codex', 'claude-code'], config, signal });
 * matrix.files.map((file) => [file.path, file.clients]); // the matrix
 * matrix.lints.filter((lint) => lint.severity === 'error'); // what fails CI
 */
import { CLIENT_NAMES, NO_CLIENT, type ClientName } from '../../context/client.ts';
import type { ClientLoad, FoundRuleFile } from '../../context/client-load.ts';
import { MAX_LINTS } from '../../context/rule-lint.ts';
import type { RulesMatrix } from '../../context/rules-matrix.ts';
import { RULES_MATRIX_LIMITS } from '../../context/rules-matrix.ts';
import { capVerdicts, type RuleVerdictInput } from '../../context/rule-verdict.ts';
import type { Snapshot } from '../../sources/snapshot.ts';
import { clientLoads, strongestLoads } from './client-loads.ts';
import type { RulesConfig } from './config.ts';
import { checkGlobs, checkReferences, readTexts } from './lints/gather.ts';
import type { LintFile, LintInput, LoadsOf } from './lints/lint-input.ts';
import { lintRules } from './lints/lint-rules.ts';
import { CLIENT_DIRECTORY_NAMES } from '../../clients/index.ts';
import { scanRuleDirectories } from './rule-directories-scan.ts';
import { gatherRules, resolve } from './rule-set.ts';

/** Every client but `none` (whose column is Groundwork's own). */
export const MATRIX_CLIENTS: readonly ClientName[] = CLIENT_NAMES.filter((name) => name !== 'none');

export interface RulesMatrixRequest {
  /** The directory the clients start in (`''` is the root). */
  cwd: string;
  /** The paths a change touches (files or directories). */
  paths: readonly string[];
  /** Which of `paths` are known to name files (a pull request's changed files). */
  files?: readonly string[];
  /** Also every directory of the commit that holds a rule file, as if the change touched each (the whole repository's matrix). */
  scan?: boolean;
  /** The clients whose cells and lints count (`none` is dropped); default the settings' `clients`, else every client. */
  clients?: readonly ClientName[];
  config: RulesConfig;
  signal: AbortSignal;
}

export async function rulesMatrix(snapshot: Snapshot, request: RulesMatrixRequest): Promise<RulesMatrix> {
  const clients = MATRIX_CLIENTS.filter((name) => (request.clients ?? request.config.clients ?? MATRIX_CLIENTS).includes(name));
  const paths = request.paths.slice(0, RULES_MATRIX_LIMITS.paths);
  const scanned = request.scan ? await scanRuleDirectories(snapshot, [...request.config.filenames, ...CLIENT_DIRECTORY_NAMES], request.config.maxGlobCheckDirectories, request.signal) : { dirs: [] };
  const focus = [...new Set([...paths, ...scanned.dirs.filter((dir) => dir !== '')])];
  const input = { task: { cwd: request.cwd, focusPaths: focus, agent: 'entry', client: NO_CLIENT }, focusFiles: request.files ?? [], config: request.config, signal: request.signal };
  // Not changed in place: the snapshot may have gathered it for turn 0, and keeps it (rules-memo).
  const gathered = await gatherRules(snapshot, input);
  const notes = scanned.note === undefined ? gathered.notes : [scanned.note, ...gathered.notes];
  const resolved = await resolve(snapshot, input, gathered, true);
  const lints = lintRules(await lintInput(snapshot, resolved.verdicts, request.cwd, clients.length > 0 ? clients : MATRIX_CLIENTS, input));
  const shown = new Set<ClientName>(['none', ...clients]);
  const files = capVerdicts(resolved.verdicts.map(({ entry: _entry, found: _found, ...verdict }) => (verdict.clients ? { ...verdict, clients: verdict.clients.filter((cell) => shown.has(cell.client)) } : verdict)));
  return {
    commit: snapshot.commit,
    cwd: request.cwd,
    paths,
    clients: clients.length > 0 ? clients : [...MATRIX_CLIENTS],
    files: files.kept,
    filesLeftOut: files.leftOut,
    lints: lints.slice(0, MAX_LINTS),
    lintsLeftOut: Math.max(0, lints.length - MAX_LINTS),
    notes: notes.slice(0, RULES_MATRIX_LIMITS.notes).map((note) => (note.length <= 400 ? note : `${note.slice(0, 399)}…`)),
  };
}

/** What the lints read, from the resolved verdicts and the snapshot. */
export async function lintInput(snapshot: Snapshot, verdicts: readonly RuleVerdictInput[], cwd: string, clients: readonly ClientName[], request: Pick<RulesMatrixRequest, 'config' | 'signal'>): Promise<LintInput> {
  const options = { maxFileBytes: request.config.maxFileBytes, maxGlobCheckDirectories: request.config.maxGlobCheckDirectories, signal: request.signal };
  const found = verdicts.flatMap((verdict): FoundRuleFile[] => {
    if (!verdict.found) return [];
    const { shared: _shared, ...facts } = verdict.found;
    return [{ path: verdict.path, format: verdict.format, ...facts }];
  });
  const texts = await readTexts(snapshot, found.map((file) => file.path), options);
  const withText = found.flatMap((file) => {
    const text = texts.get(file.path);
    return text === undefined ? [] : [{ found: file, text }];
  });
  const [globs, references] = await Promise.all([checkGlobs(snapshot, withText, options), checkReferences(snapshot, texts, options)]);
  // From the working directory, and from every directory a rule file is in (what a client started anywhere loads).
  const dirs = [...new Set([cwd, ...found.map((file) => file.dir)])];
  // Only the clients whose lints are asked for: the lints read no other client's loads.
  const here = clientLoads(verdicts, cwd, NO_CLIENT, clients);
  const strongest = strongestLoads(verdicts, dirs, NO_CLIENT, clients);
  const foundByPath = new Map<string, FoundRuleFile>();
  for (const file of found) if (!foundByPath.has(file.path)) foundByPath.set(file.path, file);
  const files = verdicts.map((verdict, i): LintFile => {
    const loads: Partial<Record<ClientName, ClientLoad>> = {};
    const ever: Partial<Record<ClientName, ClientLoad>> = {};
    for (const name of clients) {
      const load = here[name]?.[i];
      if (load) loads[name] = load;
      const best = strongest[name]?.[i];
      if (best) ever[name] = best;
    }
    const file = foundByPath.get(verdict.path);
    const text = verdict.found ? texts.get(verdict.path) : undefined;
    return {
      path: verdict.path,
      format: verdict.format,
      verdict: verdict.verdict,
      reason: verdict.reason,
      ...(verdict.blob === undefined ? {} : { blob: verdict.blob }),
      ...(verdict.found && file ? { found: file } : {}),
      ...(text === undefined ? {} : { text }),
      loads: loads as LoadsOf,
      ever: ever as LoadsOf,
    };
  });
  return { files, clients, globs, references };
}

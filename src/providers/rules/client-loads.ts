/**
 * @module providers/rules/client-loads
 * Every client's answer for the files a rules run found, and the files-by-clients matrix row each
 * verdict carries. A file is told to the profiles only when it was found and read (a verdict with
 * `found`); a reference that was refused, or a format's file a setting turned off, gets no cells.
 *
 * A cell joins the client's own load with what Groundwork gives that client: a file Groundwork
 * applies is `given` to every client that does not load it at start (with the client's reason),
 * and `loaded`/`cut` where the client has it already; a file Groundwork does not give is `lazy`,
 * `shadowed` or `not-seen` as the client loads it.
 */
import { CLIENT_NAMES, CLIENT_TITLES, type ClientName, type ClientRef } from '../../context/client.ts';
import { boundCell, LOAD_STRENGTH, type ClientCell, type ClientLoad, type FoundRuleFile, type LoadContext } from '../../context/client-load.ts';
import type { RuleVerdictInput } from '../../context/rule-verdict.ts';
import { PROFILES } from '../../clients/index.ts';
import type { ClientProfile } from '../../clients/profile.ts';

/** Per client, one answer per verdict (undefined where the verdict names no file that was read). */
export type LoadsByClient = Readonly<Record<ClientName, ReadonlyArray<ClientLoad | undefined>>>;

/** Some clients' answers per verdict: those a caller named. */
export type SomeClientsLoads = Readonly<Partial<LoadsByClient>>;

const UNREAD: ClientLoad = { load: 'never', why: 'its importer was not read', fact: '' };

/**
 * Every client's answer per verdict. The client a run is for is asked with its version and host;
 * every other client as its profile was checked. A profile answers for the files; an import is
 * answered from its importer's answer (imports come after their importers), and a file another
 * found file imports is loaded as strongly as the strongest import of it the client follows.
 */
export function clientLoads(verdicts: readonly RuleVerdictInput[], cwd: string, client: ClientRef): LoadsByClient;
/** Only `names`' answers: the rules matrix's lints read the report's clients alone. */
export function clientLoads(verdicts: readonly RuleVerdictInput[], cwd: string, client: ClientRef, names: readonly ClientName[]): SomeClientsLoads;
export function clientLoads(verdicts: readonly RuleVerdictInput[], cwd: string, client: ClientRef, names: readonly ClientName[] = CLIENT_NAMES): SomeClientsLoads {
  const files = readFiles(verdicts);
  const out: Partial<Record<ClientName, Array<ClientLoad | undefined>>> = {};
  for (const name of names) out[name] = rowFrom(files, name, cwd, client);
  return out;
}

/**
 * Per client and verdict, the strongest answer with any of `dirs` as the working directory (the
 * first of equal strength, in `dirs`' order): what a client started anywhere in the repository
 * loads. The rules matrix asks from every directory that holds a rule file, hundreds in a large
 * repository, so the files are taken from the verdicts once and each directory's answers are
 * folded in and dropped: kept until the end, collecting them as garbage was most of a large
 * matrix's time (docs/benchmarks, 2026-12-07 09:10).
 */
export function strongestLoads(verdicts: readonly RuleVerdictInput[], dirs: readonly string[], client: ClientRef): LoadsByClient;
/**
 * Only `names`' answers: every directory is asked for every client named, so the matrix's lints,
 * which read the report's clients alone, ask for those (5 of 6 by default, 1 for a repository
 * whose settings name one).
 */
export function strongestLoads(verdicts: readonly RuleVerdictInput[], dirs: readonly string[], client: ClientRef, names: readonly ClientName[]): SomeClientsLoads;
export function strongestLoads(verdicts: readonly RuleVerdictInput[], dirs: readonly string[], client: ClientRef, names: readonly ClientName[] = CLIENT_NAMES): SomeClientsLoads {
  const files = readFiles(verdicts);
  const best = new Map(names.map((name) => [name, new Array<ClientLoad | undefined>(files.count).fill(undefined)]));
  // Indexed loops, not callbacks or iterators: the matrix runs this after GitHub's last answer, in
  // V8's first tiers, where each callback and iterator step is a call (issue 56).
  for (let d = 0; d < dirs.length; d++) {
    const dir = dirs[d] ?? '';
    for (const [name, strongest] of best) {
      // One client's row at a time, folded at once: what the collector finds alive stays small.
      const row = rowFrom(files, name, dir, client);
      for (let i = 0; i < row.length; i++) {
        const load = row[i];
        const current = strongest[i];
        if (load && (!current || LOAD_STRENGTH[load.load] > LOAD_STRENGTH[current.load])) strongest[i] = load;
      }
    }
  }
  return Object.fromEntries(best);
}

/** The verdicts' files, told to the profiles: those found and read, each with its verdict's index. */
interface ReadFiles {
  count: number;
  /**
   * Each file with its index, its path's slot (one per distinct path, for `follow`), its importer's
   * slot when it is an import (-1: none found), and its view through each found file that imports
   * it (one level down) with that importer's slot.
   */
  all: Array<{ index: number; file: FoundRuleFile; slot: number; importedBySlot: number; viaImporters: Array<{ file: FoundRuleFile; importer: string; slot: number }> }>;
  /** How many distinct paths the files have. */
  paths: number;
  /** Every file but imports, which are answered from their importers. */
  plain: FoundRuleFile[];
  plainIndex: number[];
  /** Whether any answer follows another file's (an import, a file with importers). */
  linked: boolean;
  /** The imports among `all`, and the files some found file imports: what `follow` answers again. */
  imports: ReadFiles['all'];
  imported: ReadFiles['all'];
}

function readFiles(verdicts: readonly RuleVerdictInput[]): ReadFiles {
  const files: Array<{ index: number; file: FoundRuleFile }> = [];
  const plain: FoundRuleFile[] = [];
  const plainIndex: number[] = [];
  let linked = false;
  verdicts.forEach((verdict, index) => {
    if (!verdict.found) return;
    const { shared: _shared, ...found } = verdict.found;
    const file: FoundRuleFile = { path: verdict.path, format: verdict.format, ...found };
    files.push({ index, file });
    if (file.format === 'import' || (file.importers?.length ?? 0) > 0) linked = true;
    if (file.format === 'import') return;
    plain.push(file);
    plainIndex.push(index);
  });
  const slots = new Map<string, number>();
  for (const { file } of files) if (!slots.has(file.path)) slots.set(file.path, slots.size);
  const slotOf = (path: string | undefined) => (path === undefined ? -1 : (slots.get(path) ?? -1));
  const all = files.map(({ index, file }) => ({
    index,
    file,
    slot: slotOf(file.path),
    importedBySlot: slotOf(file.importedBy),
    viaImporters: (file.importers ?? []).map((importer) => ({ file: { ...file, importedBy: importer.path, depth: 1, reference: importer.reference }, importer: importer.path, slot: slotOf(importer.path) })),
  }));
  return { count: verdicts.length, all, paths: slots.size, plain, plainIndex, linked, imports: all.filter((each) => each.file.format === 'import'), imported: all.filter((each) => each.viaImporters.length > 0) };
}

/** One client's answers, one per verdict. */
function rowFrom(files: ReadFiles, name: ClientName, cwd: string, client: ClientRef): Array<ClientLoad | undefined> {
  const profile = PROFILES[name];
  const context = { cwd, ...(name === client.name ? { ...(client.version === undefined ? {} : { version: client.version }), ...(client.variant === undefined ? {} : { variant: client.variant }) } : {}) };
  const row = new Array<ClientLoad | undefined>(files.count).fill(undefined);
  const loads = profile.loads(files.plain, context);
  for (let k = 0; k < loads.length; k++) {
    const index = files.plainIndex[k];
    if (index !== undefined) row[index] = loads[k];
  }
  if (files.linked) follow(files, row, profile, context);
  return row;
}

/** Imports answered from their importers, and files made stronger by the imports of them the client follows. */
function follow(files: ReadFiles, row: Array<ClientLoad | undefined>, profile: ClientProfile, context: LoadContext): void {
  // Each path's answer, by its slot: the first answer for a path counts (a path found twice keeps
  // its first verdict's). Slots rather than a map by path: this runs per client and directory.
  const byPath = new Array<ClientLoad | undefined>(files.paths).fill(undefined);
  for (let i = 0; i < files.all.length; i++) {
    const each = files.all[i];
    const load = each && row[each.index];
    if (each && load && byPath[each.slot] === undefined) byPath[each.slot] = load;
  }
  // Imports come after their importers in `all`, so each finds its importer's answer made.
  for (const { index, file, slot, importedBySlot } of files.imports) {
    const load = profile.imports(file, (importedBySlot < 0 ? undefined : byPath[importedBySlot]) ?? UNREAD, context);
    row[index] = load;
    if (byPath[slot] === undefined) byPath[slot] = load;
  }
  for (const { index, slot, viaImporters } of files.imported) {
    for (const imported of viaImporters) {
      const via = imported.slot < 0 ? undefined : byPath[imported.slot];
      const current = row[index];
      if (!via || !current) continue;
      const load = profile.imports(imported.file, via, context);
      if (LOAD_STRENGTH[load.load] <= LOAD_STRENGTH[current.load]) continue;
      row[index] = load.load === 'start' ? { ...load, note: `imported by ${imported.importer}` } : load;
      if (byPath[slot] === current) byPath[slot] = row[index] ?? current;
    }
  }
}

/** Whether Groundwork's own choice (the union, as for `none`) puts the file in front of the model. */
export function groundworkGives(verdict: RuleVerdictInput): boolean {
  return verdict.verdict === 'applied' || verdict.verdict === 'indexed';
}

/** The verdicts with their matrix rows. */
export function withCells(verdicts: readonly RuleVerdictInput[], loads: LoadsByClient): RuleVerdictInput[] {
  return verdicts.map((verdict, i) => {
    if (!verdict.found) return verdict;
    const cells = CLIENT_NAMES.flatMap((name) => {
      const load = loads[name][i];
      return load ? [cellOf(name, load, verdict)] : [];
    });
    return { ...verdict, clients: cells };
  });
}

function cellOf(client: ClientName, load: ClientLoad, verdict: RuleVerdictInput): ClientCell {
  // A rule the index lists is left to a client that offers it to its agent itself (complement.ts).
  const gives = verdict.verdict === 'applied' || (verdict.verdict === 'indexed' && (client === 'none' || load.load === 'never' || load.load === 'shadowed'));
  if (client === 'none') return boundCell(client, gives ? 'given' : verdict.verdict === 'shadowed' ? 'shadowed' : 'not-seen', verdict.reason);
  const title = CLIENT_TITLES[client];
  switch (load.load) {
    case 'start':
      return boundCell(client, 'loaded', load.note === undefined ? 'at start' : `at start (${load.note})`);
    case 'cut':
      return boundCell(client, 'cut', gives ? `at ${load.at} bytes; Groundwork gives the rest` : `at ${load.at} bytes`);
    case 'lazy':
      return gives ? boundCell(client, 'given', `${title} loads it only when ${load.when}`) : boundCell(client, 'lazy', `when ${load.when}`);
    case 'never':
      return boundCell(client, gives ? 'given' : 'not-seen', load.why);
    case 'shadowed':
      return gives ? boundCell(client, 'given', `${title} reads ${load.by} instead`) : boundCell(client, 'shadowed', `by ${load.by}`);
  }
}

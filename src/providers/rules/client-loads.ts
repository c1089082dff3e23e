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
import { boundCell, LOAD_STRENGTH, type ClientCell, type ClientLoad, type FoundRuleFile } from '../../context/client-load.ts';
import type { RuleVerdictInput } from '../../context/rule-verdict.ts';
import { PROFILES } from '../../clients/index.ts';

/** Per client, one answer per verdict (undefined where the verdict names no file that was read). */
export type LoadsByClient = Readonly<Record<ClientName, ReadonlyArray<ClientLoad | undefined>>>;

const UNREAD: ClientLoad = { load: 'never', why: 'its importer was not read', fact: '' };

/**
 * Every client's answer per verdict. The client a run is for is asked with its version and host;
 * every other client as its profile was checked. A profile answers for the files; an import is
 * answered from its importer's answer (imports come after their importers), and a file another
 * found file imports is loaded as strongly as the strongest import of it the client follows.
 */
export function clientLoads(verdicts: readonly RuleVerdictInput[], cwd: string, client: ClientRef): LoadsByClient {
  const files: Array<{ index: number; file: FoundRuleFile }> = [];
  verdicts.forEach((verdict, index) => {
    if (!verdict.found) return;
    const { shared: _shared, ...found } = verdict.found;
    files.push({ index, file: { path: verdict.path, format: verdict.format, ...found } });
  });
  const plain = files.filter(({ file }) => file.format !== 'import');
  const out = {} as Record<ClientName, Array<ClientLoad | undefined>>;
  for (const name of CLIENT_NAMES) {
    const profile = PROFILES[name];
    const context = { cwd, ...(name === client.name ? { ...(client.version === undefined ? {} : { version: client.version }), ...(client.variant === undefined ? {} : { variant: client.variant }) } : {}) };
    const row: Array<ClientLoad | undefined> = verdicts.map(() => undefined);
    const byPath = new Map<string, ClientLoad>();
    const answer = (index: number, path: string, load: ClientLoad) => {
      row[index] = load;
      if (!byPath.has(path)) byPath.set(path, load);
    };
    profile.loads(plain.map(({ file }) => file), context).forEach((load, k) => {
      const item = plain[k];
      if (item) answer(item.index, item.file.path, load);
    });
    for (const { index, file } of files) {
      if (file.format === 'import') answer(index, file.path, profile.imports(file, byPath.get(file.importedBy ?? '') ?? UNREAD, context));
    }
    for (const { index, file } of files) {
      for (const importer of file.importers ?? []) {
        const via = byPath.get(importer.path);
        const current = row[index];
        if (!via || !current) continue;
        const load = profile.imports({ ...file, importedBy: importer.path, depth: 1, reference: importer.reference }, via, context);
        if (LOAD_STRENGTH[load.load] <= LOAD_STRENGTH[current.load]) continue;
        row[index] = load.load === 'start' ? { ...load, note: `imported by ${importer.path}` } : load;
        if (byPath.get(file.path) === current) byPath.set(file.path, row[index] ?? current);
      }
    }
    out[name] = row;
  }
  return out;
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

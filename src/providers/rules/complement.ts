/**
 * @module providers/rules/complement
 * With a client named, the rules give the complement of what that client loads by itself: every
 * piece the client loads at start is left out (and its verdict says `loaded-by-client`), a file
 * the client cuts gives the rest after the cut, the rules index drops the rules the client offers
 * its agent itself, and every piece kept says why it is there (the entry's `why`). The files the
 * client loads itself are named in one short line by path and blob, so the model knows they exist
 * without a second copy. Everything here depends only on the files, the client and the working
 * directory: a complement is as commit-stable as the pieces it keeps.
 */
import { clientTitle, type ClientRef } from '../../context/client.ts';
import type { ClientLoad } from '../../context/client-load.ts';
import type { RuleVerdictInput } from '../../context/rule-verdict.ts';
import { groundworkGives, type LoadsByClient } from './client-loads.ts';
import type { FoundRule } from './formats/rule-file.ts';
import type { RulePiece } from './pieces.ts';
import { renderRulesIndex } from './rules-index.ts';

/** Files named in the line; the rest are counted. */
const MAX_LISTED = 40;

export interface Complement {
  pieces: RulePiece[];
  verdicts: RuleVerdictInput[];
}

export function complementFor(input: { pieces: readonly RulePiece[]; verdicts: readonly RuleVerdictInput[]; loads: LoadsByClient; client: ClientRef; cwd: string; listLoaded: boolean }): Complement {
  const { client, verdicts } = input;
  const title = clientTitle({ name: client.name, ...(client.variant === undefined ? {} : { variant: client.variant }) });
  const loads = input.loads[client.name];
  // The answer for a path: its own verdict's (the one that says how it was found).
  const loadOf = new Map<string, ClientLoad>();
  verdicts.forEach((verdict, i) => {
    const load = loads[i];
    if (verdict.found && load && !loadOf.has(verdict.path)) loadOf.set(verdict.path, load);
  });

  const dropped = new Set<string>();
  const leftToClient = new Map<string, string>();
  const whys = new Map<string, string>();
  const pieces: RulePiece[] = [];
  for (const piece of input.pieces) {
    if (piece.indexed) {
      const kept = piece.indexed.filter((rule) => {
        const load = loadOf.get(rule.path);
        if (load?.load === 'lazy') leftToClient.set(rule.path, `left to ${title}, which loads it when ${load.when}`);
        return load?.load !== 'lazy' && load?.load !== 'start';
      });
      if (kept.length === 0) dropped.add(piece.title);
      else pieces.push(kept.length === piece.indexed.length ? piece : indexPiece(piece, kept));
      continue;
    }
    const load = piece.read ? loadOf.get(piece.read.path) : undefined;
    if (!piece.read || !load) {
      pieces.push(piece);
      continue;
    }
    if (load.load === 'start') {
      dropped.add(piece.title);
      continue;
    }
    if (load.load === 'cut') {
      const rest = restAfter(piece.body, load.at);
      if (rest.trim() === '') {
        dropped.add(piece.title);
        continue;
      }
      const why = `${title} loads only its first ${load.at} bytes: this is the rest`;
      whys.set(piece.read.path, why);
      pieces.push({ ...piece, body: rest, why });
      continue;
    }
    const why = load.load === 'lazy' ? `${title} loads it only when ${load.when}` : load.load === 'shadowed' ? `${title} reads ${load.by} instead` : load.why;
    whys.set(piece.read.path, why);
    pieces.push({ ...piece, why });
  }

  const settled = verdicts.map((verdict, i): RuleVerdictInput => {
    const load = verdict.found ? loads[i] : undefined;
    const { entry: _entry, ...bare } = verdict;
    if (load?.load === 'start') return { ...bare, verdict: 'loaded-by-client', reason: `${title} loads it itself at start${load.note === undefined ? '' : ` (${load.note})`}` };
    const left = leftToClient.get(verdict.path);
    if (left !== undefined && verdict.verdict === 'indexed') return { ...bare, verdict: 'not-applied', reason: left };
    if (verdict.entry !== undefined && dropped.has(verdict.entry) && groundworkGives(verdict)) return { ...bare, verdict: 'loaded-by-client', reason: `${verdict.reason}; ${title} loads that text itself` };
    const why = verdict.found && verdict.verdict === 'applied' ? whys.get(verdict.path) : undefined;
    return why === undefined ? verdict : { ...verdict, reason: `${verdict.reason}; ${why}` };
  });

  const lines = input.listLoaded ? loadedLines(verdicts, loads, title) : [];
  return { pieces: [...lines, ...pieces], verdicts: settled };
}

/** The index again, without the rules the client offers itself. */
function indexPiece(piece: RulePiece, kept: readonly FoundRule[]): RulePiece {
  return { ...piece, body: renderRulesIndex(kept), indexed: kept, warnings: kept.flatMap((rule) => rule.warnings) };
}

/**
 * The text after the first `at` UTF-8 bytes. A character the cut splits was lost to the client
 * (it decodes the cut lossily), so the rest starts with it.
 */
export function restAfter(text: string, at: number): string {
  let bytes = 0;
  let index = 0;
  for (const char of text) {
    const size = utf8Length(char.codePointAt(0) ?? 0);
    if (bytes + size > at) break;
    bytes += size;
    index += char.length;
  }
  return text.slice(index);
}

function utf8Length(codePoint: number): number {
  return codePoint < 0x80 ? 1 : codePoint < 0x800 ? 2 : codePoint < 0x10000 ? 3 : 4;
}

/**
 * `Rule files Codex loads itself`: one line naming each file the client loads at start, by path
 * and blob. What the working directory's chain and the root hold is commit-stable; a file only a
 * focus path brought is in a second, task-stable line.
 */
function loadedLines(verdicts: readonly RuleVerdictInput[], loads: ReadonlyArray<ClientLoad | undefined>, title: string): RulePiece[] {
  const shared: string[] = [];
  const focused: string[] = [];
  const seen = new Set<string>();
  verdicts.forEach((verdict, i) => {
    const load = loads[i];
    if (!verdict.found || (load?.load !== 'start' && load?.load !== 'cut') || seen.has(verdict.path)) return;
    seen.add(verdict.path);
    const blob = verdict.blob ? `blob ${verdict.blob.slice(0, 12)}` : 'not read';
    const item = `${verdict.path} (${blob}${load.load === 'cut' ? `, its first ${load.at} bytes` : ''})`;
    (verdict.found.shared ? shared : focused).push(item);
  });
  const line = (items: readonly string[], where: string): string => {
    const listed = items.slice(0, MAX_LISTED).join(', ');
    const more = items.length > MAX_LISTED ? `, and ${items.length - MAX_LISTED} more` : '';
    return `${title} loads these rule files itself${where}, so they are not repeated here: ${listed}${more}.`;
  };
  const pieces: RulePiece[] = [];
  if (shared.length > 0) pieces.push({ title: `Rule files ${title} loads itself`, body: line(shared, ' at start'), stability: 'commit', warnings: [], imports: false });
  if (focused.length > 0) pieces.push({ title: `Rule files ${title} loads itself (focus paths)`, body: line(focused, ' at start, on the focus paths'), stability: 'task', warnings: [], imports: false });
  return pieces;
}

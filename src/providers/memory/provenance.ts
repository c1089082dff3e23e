/**
 * @module providers/memory/provenance
 * Checks what a piece of knowledge cites against the task's commit: when its source names
 * `path@revision`, the blob at that path in the cited revision is compared with the blob at the
 * same path in the task's snapshot. Git blob ids are content hashes, so equal ids mean equal
 * bytes without reading either file into the context.
 *
 * Every check ends in a verdict the model is shown, never silence: unchanged, changed, deleted,
 * not checkable (and why), or not checked (no repository access, or out of time). Lines are
 * ASCII and bounded, so the budget can reserve room for them before any check has run.
 */
import type { Knowledge } from '../../context/knowledge.ts';
import type { ReadResult, RepositorySource, Snapshot } from '../../sources/snapshot.ts';

export interface Provenance {
  /** The line the entry shows, `provenance: …`. */
  line: string;
  /** Set for anything but "unchanged": what the entry's warnings carry. */
  warning?: string;
  /** Blob id of the cited path at the cited revision, when it was read. */
  blob?: string;
}

export interface ProvenanceOptions {
  /** The task's commit; absent without `repo:read`. */
  snapshot?: Snapshot;
  /** Reads other commits; absent without `repo:read`. */
  source?: RepositorySource;
  signal: AbortSignal;
  /** Checks still running after this are reported as not checked. */
  timeoutMs: number;
  /** Distinct cited revisions read per task; each may cost a fetch of that commit. */
  maxRevisions: number;
}

/** Upper bound of a provenance line, so budgets can reserve it. */
export const MAX_PROVENANCE_CHARS = 200;

const short = (commit: string) => commit.slice(0, 12);
/** Read results that show something was at the path. */
const EXISTED: ReadonlySet<ReadResult['status']> = new Set(['ok', 'binary', 'not-a-file', 'unresolved-symlink']);
const READ = { maxBytes: 1 };

export async function checkProvenance(objects: readonly Knowledge[], options: ProvenanceOptions): Promise<Provenance[]> {
  const { snapshot } = options;
  if (!snapshot) return objects.map(() => verdict('provenance not checked', 'no repository access in this task'));

  const controller = new AbortController();
  const stop = () => controller.abort(options.signal.reason);
  if (options.signal.aborted) stop();
  else options.signal.addEventListener('abort', stop, { once: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => {
      controller.abort(new Error('provenance checks ran out of time'));
      resolve('late');
    }, options.timeoutMs);
  });

  const reads = new Map<string, Promise<ReadResult>>();
  const read = (at: Snapshot, path: string) => {
    const key = `${at.commit}:${path}`;
    let pending = reads.get(key);
    if (!pending) {
      pending = at.read(path, { ...READ, signal: controller.signal }).catch((error: unknown) => ({ status: 'failed', path, reason: error instanceof Error ? error.message : String(error) }) as const);
      reads.set(key, pending);
    }
    return pending;
  };
  // One snapshot per cited revision: a remote source fetches each commit it is asked for.
  const revisions = new Map<string, Snapshot>([[snapshot.commit, snapshot]]);
  const citedSnapshot = (revision: string): Snapshot | string => {
    const known = revisions.get(revision);
    if (known) return known;
    if (!options.source) return `revision ${short(revision)} cannot be read here`;
    if (revisions.size > options.maxRevisions) return `more than ${options.maxRevisions} cited revisions in one task`;
    // Under the checks' signal: the load it shares (a pack fetch) ends when they give up, never later.
    const opened = options.source.snapshot(revision, { signal: controller.signal });
    revisions.set(revision, opened);
    return opened;
  };

  try {
    // Snapshots are opened in object order before any read settles, so which revisions count is deterministic.
    return await Promise.all(
      objects.map(async (knowledge) => {
        const { path, revision } = knowledge.source;
        if (!path || !revision) return verdict('provenance not checkable', 'the source names no path@revision');
        const cited = citedSnapshot(revision);
        if (typeof cited === 'string') return verdict('provenance not checkable', cited);
        const answer = await Promise.race([Promise.all([read(cited, path), read(snapshot, path)]), late]);
        if (answer === 'late') return verdict('provenance not checked', `the check took longer than ${options.timeoutMs} ms`);
        return compare(answer[0], answer[1], revision, snapshot.commit);
      }),
    );
  } finally {
    clearTimeout(timer);
    options.signal.removeEventListener('abort', stop);
  }
}

function compare(cited: ReadResult, current: ReadResult, revision: string, commit: string): Provenance {
  // The cited path existed (in whatever form) and the task's commit no longer has it.
  if (current.status === 'missing' && EXISTED.has(cited.status)) {
    const warning = `cited source no longer exists at ${short(commit)}`;
    return { line: `provenance: ${warning}`, warning, ...(cited.status === 'ok' ? { blob: cited.blob } : {}) };
  }
  if (cited.status !== 'ok') return verdict('provenance not checkable', `${why(cited)} at ${short(revision)}`);
  if (current.status !== 'ok') return verdict('provenance not checkable', `${why(current)} at ${short(commit)}`);
  if (cited.blob === current.blob) return { line: `provenance: checked: unchanged from ${short(revision)} to ${short(commit)}`, blob: cited.blob };
  const warning = `cited source changed since ${short(revision)}: verify before acting`;
  return { line: `provenance: ${warning}`, warning, blob: cited.blob };
}

function why(result: Exclude<ReadResult, { status: 'ok' }>): string {
  switch (result.status) {
    case 'missing':
      return 'the cited path does not exist';
    case 'not-a-file':
      return `the cited path is a ${result.kind}`;
    case 'binary':
      return 'the cited file is binary';
    case 'unresolved-symlink':
      return 'the cited path is a symlink that does not resolve';
    case 'invalid-path':
      return 'the cited path is not a repository path';
    case 'skipped':
      return `the cited path was not read (${result.reason})`;
    case 'failed':
      return `reading the cited path failed (${result.reason})`;
  }
}

/** A verdict line and warning, ASCII and at most MAX_PROVENANCE_CHARS. */
function verdict(head: string, detail: string): Provenance {
  const warning = `${head}: ${detail}`.replace(/[^\x20-\x7e]/g, '?').slice(0, MAX_PROVENANCE_CHARS - 'provenance: '.length);
  return { line: `provenance: ${warning.replace(/^provenance /, '')}`, warning };
}

/**
 * A RepositorySource wrapper that counts every call, to prove what a run did or did not read.
 */
import type { RepositorySource, Snapshot } from '../../src/sources/snapshot.ts';

export interface SourceCalls {
  resolve: number;
  list: number;
  read: number;
  commitInfo: number;
}

export function countingSource(inner: RepositorySource): { source: RepositorySource; calls: SourceCalls } {
  const calls: SourceCalls = { resolve: 0, list: 0, read: 0, commitInfo: 0 };
  const wrap = (snapshot: Snapshot): Snapshot => ({
    repository: snapshot.repository,
    commit: snapshot.commit,
    uri: (path) => snapshot.uri(path),
    list: (dir, options) => {
      calls.list++;
      return snapshot.list(dir, options);
    },
    read: (path, options) => {
      calls.read++;
      return snapshot.read(path, options);
    },
    commitInfo: (options) => {
      calls.commitInfo++;
      return snapshot.commitInfo(options);
    },
  });
  const source: RepositorySource = {
    repository: inner.repository,
    resolve: (ref, options) => {
      calls.resolve++;
      return inner.resolve(ref, options);
    },
    snapshot: (commit, options) => wrap(inner.snapshot(commit, options)),
  };
  return { source, calls };
}

/**
 * @module checks/check-task
 * What a check knows of its task before it reads anything (the repository, the pinned commit,
 * the ref it was pinned from, the pull request as the trigger saw it, the knowledge that reached
 * the model), and what it may read: the repository source, GitHub's checks and pull request
 * reads (GitHub repositories only) and the knowledge store. The host builds both; the checks
 * read nothing else, so the same code answers in the Task object, the MCP tool and the CLI.
 */
import type { Knowledge } from '../context/knowledge.ts';
import type { CommitChecksApi } from '../sources/commit-checks.ts';
import type { GitHubApi } from '../sources/pull-requests.ts';
import type { RepositorySource } from '../sources/snapshot.ts';

export interface CheckTask {
  /** The repository as the task shows it. */
  repository: string;
  /** The commit the task was pinned at (a pull request's base). */
  commit: string;
  /** The branch or tag it was resolved from; absent for a commit or the default branch. */
  ref?: string;
  pullRequest?: {
    number: number;
    /** The head the task was given. */
    headSha: string;
    headRef?: string;
    baseRef?: string;
    fromFork: boolean;
  };
  /** Every knowledge object the memory provider rendered, in render order. */
  knowledge: readonly RenderedKnowledge[];
}

/** One knowledge object as it reached the model: its id, review date and the source it cited. */
export interface RenderedKnowledge {
  id: string;
  kind: string;
  reviewBy?: string;
  source: { uri: string; path?: string; revision?: string; blob?: string };
}

export type KnowledgeVersions =
  /** Every version of the object's lineage, oldest first: the last is current. */
  | { status: 'ok'; versions: Knowledge[] }
  | { status: 'not-found' }
  | { status: 'failed'; reason: string };

export interface CheckReads {
  source: RepositorySource;
  /** Absent for repositories that are not on GitHub (git URLs, local ones). */
  github?: Pick<GitHubApi, 'pullRequest'> & CommitChecksApi;
  /** The versions of a knowledge object, in the task's own scope; absent when this host keeps no knowledge. */
  knowledge?: (id: string, signal: AbortSignal) => Promise<KnowledgeVersions>;
  /** Milliseconds since the epoch: review dates are checked against today. */
  now(): number;
}

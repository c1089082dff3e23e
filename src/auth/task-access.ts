/**
 * @module auth/task-access
 * What a route or MCP tool hands a Task object as its caller (auth/task-caller), decided here: a
 * tenant's name as it is, or for a person, the task's repository once GitHub said they may read it
 * (auth/repository-access). A task on a repository the person cannot read is "no task", as
 * another tenant's task is, so its existence shows nothing; a sign-in GitHub no longer accepts and
 * an answer GitHub could not give are refusals that say so.
 */
import * as z from 'zod';
import { getConfig } from '../env.ts';
import { lazySchema } from '../lib/lazy-schema.ts';
import type { Identity } from './identity.ts';
import { repositoryAccess, type AccessDecision, type AccessDeps } from './repository-access.ts';
import type { TaskCaller } from './task-caller.ts';

export type TaskAccess =
  | { ok: true; caller: TaskCaller }
  | { ok: false; kind: 'not-found' }
  | { ok: false; kind: 'signed-out' | 'unavailable'; message: string };

/** What answers `repository()`: the Task object, through its stub. */
export interface TaskWithRepository {
  repository(): Promise<unknown>;
}

const RepositoryAnswerSchema = lazySchema(() => z.discriminatedUnion('status', [z.object({ status: z.literal('ok'), repo: z.string() }), z.object({ status: z.literal('not-found') })]));

/** The access decisions' dependencies in the Worker: the deployment's config, the network, the clock. */
export function accessDeps(env: Env): AccessDeps {
  return { config: getConfig(env), fetch: (input, init) => fetch(input, init), now: () => Date.now() };
}

export async function taskAccess(identity: Identity, stub: TaskWithRepository | undefined, deps: AccessDeps): Promise<TaskAccess> {
  if (identity.kind === 'token') return { ok: true, caller: identity.tenant };
  if (!stub) return { ok: false, kind: 'not-found' };
  const answer = RepositoryAnswerSchema.parse(await stub.repository());
  if (answer.status === 'not-found') return { ok: false, kind: 'not-found' };
  const decision = await repositoryAccess(identity, answer.repo, 'read', deps);
  if (decision.ok) return { ok: true, caller: { tenant: identity.tenant, reads: answer.repo } };
  if (decision.kind === 'signed-out') return { ok: false, kind: 'signed-out', message: decision.message };
  // Without naming the repository: the caller may not know which one the task is on.
  if (decision.kind === 'unavailable') return { ok: false, kind: 'unavailable', message: "GitHub could not say whether you may read this task's repository; nothing was allowed, try again" };
  return { ok: false, kind: 'not-found' };
}

/**
 * What a person's new task is created with: the repository as `owner/name` however they named it,
 * read through the App installation GitHub reaches it by (their own token expires; the
 * installation's tasks are read this way too). Nothing for a host's token.
 */
export function personTaskFields(identity: Identity, access: Extract<AccessDecision, { ok: true }>): { repo?: string; githubInstallationId?: number } {
  if (identity.kind !== 'person' || access.fullName === undefined) return {};
  return { repo: access.fullName, ...(access.installationId === undefined ? {} : { githubInstallationId: access.installationId }) };
}

/**
 * @module auth/readable-tasks
 * A page of the tasks an identity may read, newest first, for `GET /tasks`, the inspector's list
 * and the MCP server's resources. A tenant reads its own and those of the tenants it was granted
 * (`TENANT_GRANTS`); a person reads their own and the tasks of the App installations GitHub lists
 * for them, row by row on repositories GitHub says they can read (auth/repository-access, each
 * repository asked once). A page may then hold fewer rows than `limit`; its cursor still moves on.
 */
import { listTenantTasks } from '../tasks/durable-task-index.ts';
import type { TaskIndexQuery, TaskPage } from '../tasks/task-index.ts';
import { readableTenants } from '../tasks/tenant-grants.ts';
import type { Identity } from './identity.ts';
import { personInstallations, repositoryAccess, type AccessDecision, type AccessDeps } from './repository-access.ts';

export type ReadablePage = { ok: true; page: TaskPage; tenants: string[] } | Extract<AccessDecision, { ok: false }>;

export async function readableTaskPage(env: Env, identity: Identity, query: TaskIndexQuery, deps: AccessDeps): Promise<ReadablePage> {
  if (identity.kind === 'token') {
    const tenants = readableTenants(deps.config.TENANT_GRANTS, identity.tenant);
    return { ok: true, page: await listTenantTasks(env, tenants, query), tenants };
  }
  if (query.repo !== undefined) {
    const named = await repositoryAccess(identity, query.repo, 'read', deps);
    if (!named.ok) return named;
  }
  const installations = await personInstallations(identity, deps);
  if (!installations.ok) return installations;
  const tenants = [identity.tenant, ...installations.value.map((installation) => `github:${installation.id}`)];
  const page = await listTenantTasks(env, tenants, query);
  const repos = [...new Set(page.rows.map((row) => row.repo))];
  const decisions = new Map(await Promise.all(repos.map(async (repo) => [repo, await repositoryAccess(identity, repo, 'read', deps)] as const)));
  for (const decision of decisions.values()) if (!decision.ok && (decision.kind === 'unavailable' || decision.kind === 'signed-out')) return decision;
  return { ok: true, page: { ...page, rows: page.rows.filter((row) => decisions.get(row.repo)?.ok === true) }, tenants };
}

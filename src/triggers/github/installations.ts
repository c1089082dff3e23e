/**
 * @module triggers/github/installations
 * The tenant's repository list, kept in the `TENANTS` KV namespace from installation events:
 * `installation:<id>` holds the record, and `account:<login>` points at the account's
 * installation (an App is installed at most once per account), so a Slack command naming
 * `owner/repo` can find the installation to act as.
 *
 * KV is last-writer-wins: two `installation_repositories` deliveries racing on one installation
 * can lose an update until the next event for it rewrites the list.
 *
 * Every change to an installation also drops its stored installation tokens: a token keeps the
 * permissions and repositories it was minted with, and suspension or deletion revokes it.
 */
import * as z from 'zod';
import { lazySchema } from '../../lib/lazy-schema.ts';
import { forgetInstallationTokens } from '../../sources/github/token-cache.ts';
import type { InstallationEvent, InstallationRepositoriesEvent } from './events.ts';

export const InstallationRecordSchema = lazySchema(() => z.object({
  installationId: z.number().int().positive(),
  account: z.string().nullable(),
  selection: z.enum(['all', 'selected']).nullable(),
  /** `owner/name`, sorted. */
  repositories: z.array(z.string()),
  suspended: z.boolean(),
  updatedAt: z.string(),
}));
export type InstallationRecord = z.output<typeof InstallationRecordSchema>;

export type InstallationOutcome = { installationId: number; action: string; repositories: number } | { ignored: string };

export const installationKey = (id: number): string => `installation:${id}`;
export const accountKey = (login: string): string => `account:${login.toLowerCase()}`;

export async function readInstallation(kv: KVNamespace, id: number): Promise<InstallationRecord | undefined> {
  const parsed = InstallationRecordSchema.safeParse(await kv.get(installationKey(id), 'json'));
  return parsed.success ? parsed.data : undefined;
}

/** The installation covering `owner/name`, if it is installed, not suspended and includes the repository. */
export async function installationForRepo(kv: KVNamespace, fullName: string): Promise<InstallationRecord | undefined> {
  const owner = fullName.split('/')[0] ?? '';
  const id = Number(await kv.get(accountKey(owner)));
  if (!Number.isInteger(id) || id <= 0) return undefined;
  const record = await readInstallation(kv, id);
  if (!record || record.suspended) return undefined;
  const wanted = fullName.toLowerCase();
  const included = record.selection === 'all' || record.repositories.some((name) => name.toLowerCase() === wanted);
  return included ? record : undefined;
}

export async function applyInstallationEvent(kv: KVNamespace, event: InstallationEvent, now: Date): Promise<InstallationOutcome> {
  const { installation, action } = event;
  const existing = await readInstallation(kv, installation.id);
  if (action === 'deleted') {
    const account = installation.account?.login ?? existing?.account;
    await kv.delete(installationKey(installation.id));
    if (account) await kv.delete(accountKey(account));
    await forgetInstallationTokens(kv, installation.id);
    return { installationId: installation.id, action, repositories: 0 };
  }
  if (!['created', 'new_permissions_accepted', 'suspend', 'unsuspend'].includes(action)) {
    return { ignored: `installation action "${action}" changes nothing we keep` };
  }
  const repositories = event.repositories?.map((repo) => repo.full_name) ?? existing?.repositories ?? [];
  const record: InstallationRecord = {
    installationId: installation.id,
    account: installation.account?.login ?? existing?.account ?? null,
    selection: installation.repository_selection ?? existing?.selection ?? null,
    repositories: [...new Set(repositories)].sort(),
    suspended: action === 'suspend',
    updatedAt: now.toISOString(),
  };
  await store(kv, record);
  return { installationId: installation.id, action, repositories: record.repositories.length };
}

export async function applyRepositoriesEvent(kv: KVNamespace, event: InstallationRepositoriesEvent, now: Date): Promise<InstallationOutcome> {
  const { installation, action } = event;
  if (action !== 'added' && action !== 'removed') return { ignored: `installation_repositories action "${action}" changes nothing we keep` };
  const existing = await readInstallation(kv, installation.id);
  const names = new Set(existing?.repositories ?? []);
  for (const repo of event.repositories_added) names.add(repo.full_name);
  for (const repo of event.repositories_removed) names.delete(repo.full_name);
  const record: InstallationRecord = {
    installationId: installation.id,
    account: installation.account?.login ?? existing?.account ?? null,
    selection: event.repository_selection,
    repositories: [...names].sort(),
    suspended: existing?.suspended ?? false,
    updatedAt: now.toISOString(),
  };
  await store(kv, record);
  return { installationId: installation.id, action, repositories: record.repositories.length };
}

async function store(kv: KVNamespace, record: InstallationRecord): Promise<void> {
  await kv.put(installationKey(record.installationId), JSON.stringify(record));
  if (record.account) await kv.put(accountKey(record.account), String(record.installationId));
  await forgetInstallationTokens(kv, record.installationId);
}

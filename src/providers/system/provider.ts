/**
 * @module providers/system/provider
 * Runtime and repository orientation (category `system`, first turn): the pin (see `pin.ts`)
 * and, with `repo:read`, the repository inventory at the pinned commit (see `inventory.ts`).
 *
 * `repo:read` is used, not required: an agent without it (the communicator) or an untrusted
 * task still gets the pin, without the commit date and the inventory, and the outcome's reason
 * says why. The commit date and the inventory are read under `readTimeoutMs`, shorter than the
 * provider's own timeout, so a slow repository costs the inventory, never the pin. The reads
 * are not aborted at that deadline: other providers may be waiting on the same tree.
 *
 * Entries: `Pinned commit` and `Repository inventory` are `commit`-stable (freshness `snapshot`
 * and `pinned`), `How the commit was chosen` is `task` (`snapshot`).
 */
import type * as z from 'zod';
import type { Built } from '../../lib/lazy-schema.ts';
import type { EntryInput } from '../../context/entry.ts';
import { defineProvider, type Provider } from '../../context/provider.ts';
import type { CommitInfo, Snapshot } from '../../sources/snapshot.ts';
import { directoryChain } from '../rules/chain.ts';
import { buildInventory } from './inventory.ts';
import { pinEntries } from './pin.ts';
import { projectFileMatcher } from './project-files.ts';
import { type SystemConfigSchema, systemSettings } from './settings.ts';

export interface SystemProviderOptions {
  timeoutMs?: number;
  budget?: number;
}

export const INVENTORY_TITLE = 'Repository inventory';

export function createSystemProvider(options: SystemProviderOptions = {}): Provider<Built<typeof SystemConfigSchema>> {
  return defineProvider({
    ...systemSettings(),
    ...(options.budget === undefined ? {} : { budget: options.budget }),
    requires: [],
    uses: ['repo:read'],
    turns: 'first',
    timeoutMs: options.timeoutMs ?? 5_000,
    // The listings the inventory makes, so a source can read them ahead with everything else.
    plan: ({ task }) => ({ dirs: directoryChain(task.cwd), files: [], walks: [] }),
    async run({ task, host, snapshot, withheld, config, signal }) {
      const notes: string[] = [];
      let commitInfo: CommitInfo | undefined;
      let inventory: EntryInput | undefined;
      if (snapshot) {
        const read = await withinDeadline(readRepository(snapshot, task.cwd, config, signal), config.readTimeoutMs);
        if (read === 'late') notes.push(`commit date and repository inventory left out: not read within ${config.readTimeoutMs} ms`);
        else {
          if (read.commit.status === 'ok') commitInfo = read.commit.info;
          else notes.push(`commit date left out: ${read.commit.reason}`);
          if (typeof read.inventory === 'string') {
            inventory = {
              title: INVENTORY_TITLE,
              body: read.inventory,
              source: { uri: snapshot.uri(''), revision: snapshot.commit },
              freshness: 'pinned',
              stability: 'commit',
            };
          } else notes.push(`repository inventory left out: ${read.inventory.failed}`);
        }
      } else {
        notes.push(`commit date and repository inventory left out: ${withheld['repo:read'] ?? 'no repository snapshot'}`);
      }
      // The inventory goes last: a budget cuts it before the pin.
      return { entries: [...pinEntries(task, host, commitInfo), ...(inventory ? [inventory] : [])], notes };
    },
  });
}

type SystemConfig = z.output<typeof SystemConfigSchema>;

async function readRepository(snapshot: Snapshot, cwd: string, config: SystemConfig, signal: AbortSignal) {
  const isProjectFile = projectFileMatcher(config.projectFiles);
  const [commit, inventory] = await Promise.all([
    snapshot.commitInfo({ signal }),
    buildInventory(snapshot, cwd, { maxNames: config.maxNames, isProjectFile }, signal).catch((error: unknown) => {
      if (signal.aborted) throw error;
      return { failed: error instanceof Error ? error.message : String(error) };
    }),
  ]);
  return { commit, inventory };
}

async function withinDeadline<T>(work: Promise<T>, ms: number): Promise<T | 'late'> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), ms)));
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

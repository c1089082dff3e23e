/**
 * Small providers of our own contract for runner tests: each is a real Provider whose behaviour
 * (delay, entries, failure) is fixed by its factory arguments.
 */
import { z } from 'zod';
import type { EntryInput } from '../../src/context/entry.ts';
import { defineProvider, type Category, type Capability, type Provider, type TurnPolicy } from '../../src/context/provider.ts';

export const COMMIT = 'a'.repeat(40);

export function entry(title: string, body: string, path = `${title}.md`): EntryInput {
  return { title, body, source: { uri: `file:///repo/${path}`, path, revision: COMMIT }, freshness: 'pinned' };
}

interface FakeOptions {
  name: string;
  category?: Category;
  position?: number;
  turns?: TurnPolicy;
  requires?: Capability[];
  timeoutMs?: number;
  budget?: number;
  delayMs?: number;
  entries?: unknown[];
  throws?: string;
  /** Never settles and ignores the abort signal. */
  hang?: boolean;
  onRun?: (signal: AbortSignal) => void;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function fakeProvider(options: FakeOptions): Provider {
  return defineProvider({
    name: options.name,
    category: options.category ?? 'rules',
    config: z.object({ greeting: z.string().default('hello') }),
    requires: options.requires ?? [],
    turns: options.turns ?? 'all',
    timeoutMs: options.timeoutMs ?? 1_000,
    budget: options.budget ?? 1_000,
    ...(options.position === undefined ? {} : { position: options.position }),
    async run({ signal }) {
      options.onRun?.(signal);
      if (options.hang) return new Promise<never>(() => {});
      if (options.delayMs) await sleep(options.delayMs);
      if (options.throws) throw new Error(options.throws);
      // Deliberately unchecked: the runner must validate whatever a provider returns.
      return (options.entries ?? [entry(options.name, `${options.name} body`)]) as EntryInput[];
    },
  });
}

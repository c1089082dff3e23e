/**
 * @module auth/access-cache
 * GitHub's answers about a person (may they read or push to a repository, which installations of
 * the App they reach), kept briefly in the isolate's memory so one page, one list or one tool call
 * asks GitHub once per repository, and so a change on GitHub (access removed, the App revoked)
 * takes effect within {@link ACCESS_TTL_MS}. Only answers are kept: a failure to get one is
 * asked again next time. Bounded: the oldest entry goes first.
 */

/** How long an answer from GitHub stands before it is asked again. */
export const ACCESS_TTL_MS = 60_000;
const MAX_ENTRIES = 2_000;

export interface AccessCache {
  get<T>(key: string, now: number): T | undefined;
  set(key: string, value: unknown, expiresAt: number): void;
}

export function memoryAccessCache(max = MAX_ENTRIES): AccessCache {
  const entries = new Map<string, { value: unknown; expiresAt: number }>();
  return {
    get<T>(key: string, now: number): T | undefined {
      const entry = entries.get(key);
      if (!entry) return undefined;
      if (entry.expiresAt <= now) {
        entries.delete(key);
        return undefined;
      }
      return entry.value as T;
    },
    set(key, value, expiresAt) {
      entries.delete(key);
      entries.set(key, { value, expiresAt });
      if (entries.size > max) entries.delete(entries.keys().next().value ?? '');
    },
  };
}

/** This isolate's cache, shared by every request it serves. */
export const isolateAccessCache: AccessCache = memoryAccessCache();

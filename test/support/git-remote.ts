/**
 * @module test/support/git-remote
 * The test side of the git server's repository control: a fresh repository of this test's own,
 * served over smart HTTP, and commits pushed to its `main` mid-test (see git-repo-control).
 */
import { inject } from 'vitest';
import { z } from 'zod';

const Created = z.object({ name: z.string(), head: z.string() });
const Pushed = z.object({ head: z.string() });

export interface TestRemote {
  /** The repository's smart-HTTP URL. */
  url: string;
  /** `main` at creation. */
  first: string;
  /** Writes (text) or deletes (null) files, commits and pushes to `main`; returns the new head. */
  push(files: Record<string, string | null>, message?: string): Promise<string>;
}

export async function createTestRemote(files: Record<string, string>): Promise<TestRemote> {
  const base = `http://127.0.0.1:${inject('gitHttpPort')}`;
  const post = async (path: string, body: unknown): Promise<unknown> => {
    const response = await fetch(`${base}${path}`, { method: 'POST', body: JSON.stringify(body) });
    if (!response.ok) throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
    return response.json();
  };
  const { name, head } = Created.parse(await post('/_control/repos', { files }));
  return {
    url: `${base}/${name}`,
    first: head,
    push: async (changes, message) => Pushed.parse(await post(`/_control/${name}/commit`, { files: changes, ...(message ? { message } : {}) })).head,
  };
}

/**
 * @module test/bounds/bindings
 * The `workers-bounds` project: the same Worker with short bounds, so tests drive a remote that
 * never answers or a pack over the cap through the real Worker and Task objects in a second
 * rather than in the production minute. Only failures are tested here: on a loaded machine a
 * whole assembly may not fit in one second. Loaded by vitest.config.ts in Node and by the tests
 * in workerd, so it imports nothing at runtime.
 */
import type { GitHubFixture } from '../support/github-api-client.ts';

/** The local GitHub API server's scope this project's GITHUB_API_URL points into. */
export const BOUNDS_SCOPE = 'worker-bounds';
export const BOUNDS_ASSEMBLY_TIMEOUT_MS = 1_000;
export const BOUNDS_MAX_FETCH_BYTES = 256 * 1024;

export function boundsBindings(githubApiPort: number, fixture: GitHubFixture): Record<string, string> {
  return {
    ASSEMBLY_TIMEOUT_MS: String(BOUNDS_ASSEMBLY_TIMEOUT_MS),
    GIT_MAX_FETCH_BYTES: String(BOUNDS_MAX_FETCH_BYTES),
    // REST tasks on owner/name read with the plain token here.
    GITHUB_TOKEN: fixture.token,
    GITHUB_API_URL: `http://127.0.0.1:${githubApiPort}/s/${BOUNDS_SCOPE}`,
  };
}

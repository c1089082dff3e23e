/**
 * @module tasks/host-guarded-fetch
 * A fetch for git-URL tasks that follows redirects itself, so a redirect can never carry a
 * request to a host outside GIT_ALLOWED_HOSTS (the first URL is checked when the task is created).
 */
import type { FetchLike } from '../sources/git/http-client.ts';
import { gitHostAllowed } from './task-request.ts';

const MAX_REDIRECTS = 5;

export function hostGuardedFetch(fetch: FetchLike, allowed: readonly string[]): FetchLike {
  return async (url, init) => {
    let target = url;
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      if (!gitHostAllowed(target, allowed)) throw new Error(`${new URL(target).hostname} is not an allowed git host (GIT_ALLOWED_HOSTS)`);
      const response = await fetch(target, { ...init, redirect: 'manual' });
      const location = response.headers.get('location');
      if (response.status < 300 || response.status > 399 || location === null) return response;
      await response.body?.cancel();
      target = new URL(location, target).toString();
    }
    throw new Error(`more than ${MAX_REDIRECTS} redirects from ${url}`);
  };
}

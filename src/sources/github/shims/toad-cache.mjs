// toad-cache for the Worker bundle only (wrangler.toml [alias]). @octokit/auth-app builds a
// default token cache, an `Lru`, for every App client, and then uses the `cache` it was given
// instead: Groundwork always gives it one (src/sources/github/token-cache.ts, memory and KV), so
// the default is built and never read. If auth-app ever read or wrote it, it fails loudly.
const unbundled = () => {
  throw new Error("toad-cache is not part of the Worker bundle: @octokit/auth-app is always given Groundwork's token cache (src/sources/github/shims/toad-cache.mjs)");
};

export class Lru {
  get = unbundled;
  set = unbundled;
  delete = unbundled;
  clear = unbundled;
}

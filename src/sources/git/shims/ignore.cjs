// `ignore` for the Worker bundle only (wrangler.toml [alias]). isomorphic-git reads .gitignore
// with it for working-tree commands (add, status, checkout), which the Worker never runs: it
// only fetches and reads objects (src/sources/git/isomorphic-git-commands.ts), and the bundle
// keeps none of the code that calls it, only the package's load. If that ever changed, it fails loudly.
'use strict';
module.exports = function ignore() {
  throw new Error('the ignore package is not part of the Worker bundle: the Worker has no working tree (src/sources/git/shims/ignore.cjs)');
};

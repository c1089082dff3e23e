// `diff3` for the Worker bundle only (wrangler.toml [alias]). isomorphic-git merges files with it
// (merge, pull), which the Worker never runs: it only fetches and reads objects
// (src/sources/git/isomorphic-git-commands.ts), and the bundle keeps none of the code that calls
// it, only the package's load. If that ever changed, it fails loudly.
'use strict';
module.exports = function diff3Merge() {
  throw new Error('the diff3 package is not part of the Worker bundle: the Worker never merges (src/sources/git/shims/diff3.cjs)');
};

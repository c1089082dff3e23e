// `pify` for the Worker bundle only (scripts/worker-aliases). isomorphic-git promisifies an fs
// client's methods with it only when the client is callback-style; the Worker's is promise-based
// (src/sources/git/memory-fs.ts, `promises`), so isomorphic-git binds its methods as they are and
// never calls this. If that ever changed, it fails loudly.
'use strict';
module.exports = function pify() {
  throw new Error("the pify package is not part of the Worker bundle: the Worker's git fs client is promise-based (src/sources/git/shims/pify.cjs)");
};

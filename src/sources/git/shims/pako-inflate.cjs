// pako for the Worker bundle only (wrangler.toml [alias]): its inflate half. isomorphic-git
// inflates with pako (objects, and packs as it indexes them) but deflates with workerd's
// CompressionStream whenever one exists, which it always does there; the deflate half
// (about 25 KiB minified) could never run. If isomorphic-git ever reached for it, it fails loudly.
'use strict';
const inflate = require('pako/lib/inflate.js');

module.exports = {
  ...inflate,
  deflate() {
    throw new Error('pako.deflate is not part of the Worker bundle: workerd deflates with CompressionStream (src/sources/git/shims/pako-inflate.cjs)');
  },
};

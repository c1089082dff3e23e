// typed-array-buffer for the Worker bundle only (wrangler.toml [alias]). sha.js's to-buffer calls
// it only where `ArrayBuffer.isView` is missing, which it never is in workerd; the package and the
// get-intrinsic family it pulls in (about 20 KiB minified) are polyfills for engines older than ES2015.
'use strict';
module.exports = function typedArrayBuffer(value) {
  if (!ArrayBuffer.isView(value) || value instanceof DataView) throw new TypeError('Not a Typed Array');
  return value.buffer;
};

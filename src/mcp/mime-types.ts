/**
 * @module mcp/mime-types
 * The media type a file of a skill is served with, from its name: what the extension asks of
 * SKILL.md (`text/markdown`) and the usual types of a skill's scripts, references and assets.
 * Unknown text is `text/plain`, unknown bytes `application/octet-stream`.
 */
const BY_EXTENSION: Readonly<Record<string, string>> = {
  md: 'text/markdown',
  txt: 'text/plain',
  json: 'application/json',
  yaml: 'application/yaml',
  yml: 'application/yaml',
  html: 'text/html',
  css: 'text/css',
  csv: 'text/csv',
  js: 'text/javascript',
  ts: 'text/x-typescript',
  py: 'text/x-python',
  sh: 'text/x-shellscript',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  pdf: 'application/pdf',
};

export function mimeTypeOf(path: string, text: boolean): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  const extension = dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
  // Own keys only: a file named `x.constructor` has no type.
  const known = Object.hasOwn(BY_EXTENSION, extension) ? BY_EXTENSION[extension] : undefined;
  return known ?? (text ? 'text/plain' : 'application/octet-stream');
}

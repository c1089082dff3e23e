/**
 * @module sources/git/uri
 * Entry URIs for the git sources (local and smart HTTP), which have no web view to link to:
 * `<repository>/<path>@<commit>`, e.g. `file:///src/app/docs/AGENTS.md@0123…` or
 * `https://git.example.com/app.git/docs/AGENTS.md@0123…`. The root is `<repository>@<commit>`.
 * Path segments are percent-encoded so a space or `@` in a file name cannot blur the boundary.
 */

export function gitPathUri(repository: string, commit: string, path: string): string {
  if (path === '') return `${repository}@${commit}`;
  return `${repository}/${path.split('/').map(encodeURIComponent).join('/')}@${commit}`;
}

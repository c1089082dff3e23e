/**
 * @module providers/system/project-files
 * Which file names say what kind of project a directory holds: package and build manifests,
 * lock files, toolchain pins, container and task-runner files, READMEs. Patterns are file names
 * with `*` for any run of characters, matched case-insensitively (`Makefile` and `makefile`,
 * `README.md` and `readme.rst`).
 */

export const DEFAULT_PROJECT_FILES: readonly string[] = [
  'README*',
  'CONTRIBUTING*',
  'package.json',
  'pnpm-workspace.yaml',
  'package-lock.json',
  'pnpm-lock.yaml',
  'yarn.lock',
  'bun.lock',
  'bun.lockb',
  'deno.json',
  'deno.jsonc',
  'tsconfig.json',
  'wrangler.toml',
  'wrangler.json',
  'wrangler.jsonc',
  'pyproject.toml',
  'setup.py',
  'setup.cfg',
  'requirements*.txt',
  'Pipfile',
  'poetry.lock',
  'uv.lock',
  'Cargo.toml',
  'Cargo.lock',
  'go.mod',
  'go.work',
  'pom.xml',
  'build.gradle',
  'build.gradle.kts',
  'settings.gradle',
  'settings.gradle.kts',
  'Gemfile',
  'Gemfile.lock',
  'composer.json',
  'mix.exs',
  'Package.swift',
  '*.csproj',
  '*.sln',
  'CMakeLists.txt',
  'meson.build',
  'MODULE.bazel',
  'WORKSPACE',
  'BUILD.bazel',
  'flake.nix',
  'Makefile',
  'GNUmakefile',
  'justfile',
  'Taskfile.yml',
  'Dockerfile',
  'Containerfile',
  'docker-compose.yml',
  'compose.yaml',
  '.tool-versions',
  '.nvmrc',
  '.python-version',
];

/**
 * A matcher for `patterns`, built once per run: one expression with a branch per pattern, so a
 * name is tested once (not once per pattern) and one expression is compiled, not fifty; on a
 * large repository's directories that was most of the inventory's time (issue 56).
 */
export function projectFileMatcher(patterns: readonly string[]): (name: string) => boolean {
  if (patterns.length === 0) return () => false;
  const expression = new RegExp(`^(?:${patterns.map((pattern) => pattern.split('*').map(escapeRegExp).join('.*')).join('|')})$`, 'is');
  return (name) => expression.test(name);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

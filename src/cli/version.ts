/**
 * @module cli/version
 * The package version the CLI reports: the one the Worker and the system provider report too.
 */
import { groundworkVersion } from '../lib/version.ts';

export function packageVersion(): string {
  return groundworkVersion;
}

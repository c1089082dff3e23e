/**
 * @module lib/version
 * Groundwork's version, taken from package.json when the code is built: bundlers (wrangler's
 * esbuild, vite) inline it into the Worker, so nothing reads the file at run time there.
 */
import packageJson from '../../package.json' with { type: 'json' };

export const GROUNDWORK_VERSION: string = packageJson.version;

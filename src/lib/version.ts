/**
 * @module lib/version
 * Groundwork's version, from package.json when the code is built: the bundlers (wrangler's and
 * the CLI build's esbuild, vite in the tests) inline it, so neither the Worker nor `dist/`
 * reads the file at run time. Run from source, Node loads it as a JSON module.
 */
import packageJson from '../../package.json' with { type: 'json' };

export const groundworkVersion: string = packageJson.version;

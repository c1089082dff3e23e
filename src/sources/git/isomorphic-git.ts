/**
 * @module sources/git/isomorphic-git
 * isomorphic-git, loaded on first use. Evaluating it and what it pulls in (pako, sha.js, crc-32's
 * tables, the typed-array shims) costs every cold isolate about 25 ms of CPU, and only a task
 * on a plain git remote needs it. esbuild turns the dynamic import into a module that
 * initialises when first awaited (the Worker bundle) or a chunk of its own (the CLI); the
 * commands are named in `isomorphic-git-commands.ts` so the rest of isomorphic-git stays out.
 */
export const isomorphicGit = (): Promise<typeof import('./isomorphic-git-commands.ts')> => import('./isomorphic-git-commands.ts');

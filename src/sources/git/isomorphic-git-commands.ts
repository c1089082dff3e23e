/** The isomorphic-git commands the remote source uses; loaded through `isomorphic-git.ts`. */
export { addRemote, fetch, init, listServerRefs, readBlob, readCommit, readTree } from 'isomorphic-git';

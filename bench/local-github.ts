/**
 * The tests' local GitHub API server, on its own thread, serving one repository to a personal
 * token (the App key is a throwaway the benches never sign with).
 */
import { generateKeyPairSync } from 'node:crypto';
import type { PullFixture } from '../test/support/github-api-repo.ts';
import { startGitHubServerThread, type ServerThread } from '../test/support/github-server-thread.ts';

export async function startLocalGitHub(options: { repoDir: string; owner: string; repo: string; token: string; pulls?: PullFixture[] }): Promise<ServerThread> {
  const { publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return startGitHubServerThread({
    repoDir: options.repoDir,
    owner: options.owner,
    repo: options.repo,
    appId: '1',
    installationId: 1,
    appPublicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    personalToken: options.token,
    ...(options.pulls ? { pulls: options.pulls } : {}),
  });
}

/**
 * @module tasks/admission
 * What this deployment checks before it creates a task from outside (REST `POST /tasks`, the MCP
 * `assemble_context` tool), beyond the request's own shape: a git host it allows, a local
 * repository it serves, a token for GitHub reads, provider settings within the host's caps. A
 * task that could only fail later is refused now, naming the field.
 */
import type { Config } from '../env.ts';
import type { SettingsLayer } from '../context/settings/layer.ts';
import { taskSettingsProblems } from '../providers/settings.ts';
import { hasGitHubApp } from './github-app-configured.ts';
import { repositoryIdentity, repositoryPolicy } from './repository-identity.ts';
import { isGitUrl, isLocalRepo } from './task-request.ts';

export type AdmissionProblem = { code: 'bad_request' | 'not_configured'; message: string };

export function admissionProblem(config: Config, body: { repo: string; providers?: SettingsLayer | undefined; githubInstallationId?: number | undefined }): AdmissionProblem | undefined {
  // The deployment's rules for names (git hosts, served local repositories), as every route that takes a repository applies them.
  const named = repositoryIdentity(body.repo, repositoryPolicy(config));
  if (!named.ok) return { code: 'bad_request', message: `repo: ${named.reason}` };
  // owner/name is read with the host token, or for a person as the App's installation; without either the task could only fail later.
  if (!isGitUrl(body.repo) && !isLocalRepo(body.repo)) {
    if (body.githubInstallationId !== undefined && !hasGitHubApp(config)) return { code: 'not_configured', message: 'repo: reading it as the GitHub App installation needs GITHUB_APP_PRIVATE_KEY on this deployment' };
    if (body.githubInstallationId === undefined && !config.GITHUB_TOKEN) return { code: 'not_configured', message: 'repo: owner/name repositories need GITHUB_TOKEN on this deployment; use a git URL instead' };
  }
  const [capped] = body.providers ? taskSettingsProblems(config.PROVIDER_CONFIG, body.providers) : [];
  if (capped) return { code: 'bad_request', message: `providers.${capped.path}: ${capped.message}` };
  return undefined;
}

/**
 * @module triggers/slack/allowlist
 * Which repositories a Slack team may target is host configuration (`SLACK_TEAM_REPOS`), never
 * something a command can widen. Entries are `owner/repo` or `owner/*`; GitHub names compare
 * case-insensitively. Only a name GitHub could give a repository is ever allowed: `acme/..`,
 * `acme/.` or `acme/x.git` is no repository under `acme/*`, whichever subcommand asks.
 */
import { parseFullName } from '../../sources/github/repo-name.ts';

/**
 * @example
 * repoAllowed({ T123: ['acme/*'] }, 'T123', 'Acme/widgets') // true
 * repoAllowed({ T123: ['acme/*'] }, 'T999', 'acme/widgets') // false
 */
export function repoAllowed(teamRepos: Readonly<Record<string, readonly string[]>>, teamId: string, fullName: string): boolean {
  if (!Object.hasOwn(teamRepos, teamId) || !parseFullName(fullName).ok) return false;
  const wanted = fullName.toLowerCase();
  const owner = wanted.split('/')[0];
  return (teamRepos[teamId] ?? []).some((entry) => {
    const allowed = entry.trim().toLowerCase();
    return allowed === wanted || allowed === `${owner}/*`;
  });
}

/**
 * @module providers/rules/chain-notices
 * What the model is told about rules it was not given: directories past the bound, files the
 * budget could not hold, a pull request whose files could not be listed or were too many to
 * follow. Deterministic (no durations, no upstream messages), so a retry renders the same bytes;
 * names come from repositories and pull requests and go through `displayName`.
 */
import { FOCUS_LIMITS, type PullRequestFocus } from '../../context/focus.ts';
import { displayName } from '../display-name.ts';

/** Names listed in one notice; the rest are counted. */
const NAMED = 10;

const CLAIM = 'Do not say you followed them; read them yourself before you rely on the directories they cover.';

function named(paths: readonly string[]): string {
  const shown = paths.slice(0, NAMED).map((path) => displayName(path === '' ? '.' : path));
  const more = paths.length - shown.length;
  return more > 0 ? `${shown.join(', ')} and ${more} more` : shown.join(', ');
}

export function budgetNotice(paths: readonly string[], budget: number): string {
  const [what, were] = paths.length === 1 ? ['The rules file', 'was'] : [`${paths.length} rules files`, 'were'];
  return `${what} ${named(paths)} ${were} left out: the rules budget of ${budget} tokens could not hold ${paths.length === 1 ? 'it' : 'them'} beside the nearer ones. ${CLAIM}`;
}

export function boundNotice(dirs: readonly string[], max: number): string {
  const what = dirs.length === 1 ? 'directory' : 'directories';
  return `The rules of ${dirs.length} more ${what} on the focus paths' chains were not read: at most ${max} directories are followed (${named(dirs)}). ${CLAIM}`;
}

/** The pull request's files could not be listed, or were not listed for this task at all. */
export function unlistedNotice(number: number, failed: boolean): string {
  const how = failed ? 'could not be listed' : 'were not listed for this task';
  return `The files pull request #${number} changes ${how}, so the rules of the directories it touches were not read; only the working directory's chain was. Do not say you followed the rules of those directories.`;
}

export function leftOutNotice(number: number, leftOut: PullRequestFocus['leftOut']): string {
  const first = FOCUS_LIMITS.pullRequestFiles;
  const of = leftOut.exact ? `the ${first + leftOut.count} files` : 'the files';
  const others = leftOut.exact ? `the other ${leftOut.count}` : 'the others';
  return `Only the first ${first} of ${of} pull request #${number} changes were followed${leftOut.exact ? '' : ' (it changes more)'}: the rules of directories that only ${others} touch were not read. ${CLAIM}`;
}

/** The same, as the rules outcome's reason says it (the check run, the inspector, `GET /tasks/:id`). */
export function leftOutNote(leftOut: PullRequestFocus['leftOut']): string {
  const first = FOCUS_LIMITS.pullRequestFiles;
  return `only the first ${first} of ${leftOut.exact ? `the ${first + leftOut.count}` : `more than ${first}`} changed files were followed`;
}

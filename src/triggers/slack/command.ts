/**
 * @module triggers/slack/command
 * `/groundwork owner/repo[#PR][@ref][:path] [+path …] request words $skill` -> what to create, or
 * the usage text. A pull request pins the task at its base commit, so `#PR` and `@ref` together
 * would name two different commits for the rules: that is refused rather than guessed. Words
 * right after the target that start with `+` are focus paths (files or directories the task
 * touches besides its working directory); the request starts at the first word that does not.
 */
import { isValidRefName } from '../../sources/git/ref-name.ts';
import { parseFullName } from '../../sources/github/repo-name.ts';
import { normalisePath } from '../../sources/paths.ts';
import { FocusPathSchema } from '../../tasks/task-request.ts';
import { FOCUS_LIMITS } from '../../context/focus.ts';
import { collectSkills } from '../text.ts';
import { KNOWLEDGE_USAGE } from './knowledge-command.ts';

export interface SlackCommand {
  owner: string;
  repo: string;
  pullNumber?: number;
  ref?: string;
  cwd: string;
  /** Focus paths named with `+path`. */
  paths: string[];
  request: string;
  skills: string[];
}

export type ParsedCommand = { ok: true; command: SlackCommand } | { ok: false; problem: string };

export const USAGE = [
  'Usage: `/groundwork owner/repo[#PR][@ref][:path] what you want done $skill`',
  '• `acme/widgets fix the flaky login test $tdd`',
  '• `acme/widgets#42 review the error handling` (rules read at the pull request’s base commit)',
  '• `acme/widgets@release-2.1:services/api explain the retry policy`',
  '• `acme/widgets +packages/api +packages/web/src/app.ts why do these disagree?` (the rules of both paths’ directories too)',
  KNOWLEDGE_USAGE,
].join('\n');

// Git refs cannot contain `:` or whitespace, so `@ref` ends at the first of either.
const TARGET = /^([A-Za-z0-9_-]+)\/([A-Za-z0-9._-]+)(?:#(\d{1,9}))?(?:@([^\s:]+))?(?::(\S*))?$/;
const MAX_REQUEST_CHARS = 20_000;

/**
 * @example
 * parseSlackCommand('acme/widgets#42:src explain $tdd')
 * // { ok: true, command: { owner: 'acme', repo: 'widgets', pullNumber: 42, cwd: 'src', request: 'explain $tdd', skills: ['tdd'] } }
 */
export function parseSlackCommand(text: string): ParsedCommand {
  const trimmed = text.trim();
  const space = trimmed.search(/\s/);
  const target = space < 0 ? trimmed : trimmed.slice(0, space);
  const focus = focusWords(space < 0 ? '' : trimmed.slice(space).trim());
  if (!focus.ok) return focus;
  const { paths, request } = focus;
  if (target === '' || target === 'help') return { ok: false, problem: 'no repository named' };
  const match = TARGET.exec(target);
  if (!match) return { ok: false, problem: `\`${target}\` is not \`owner/repo[#PR][@ref][:path]\`` };
  const [, owner = '', repo = '', pull, ref, path] = match;
  // The allowlist compares names, so `acme/..` must be refused before it can match `acme/*`.
  const name = parseFullName(`${owner}/${repo}`);
  if (!name.ok) return { ok: false, problem: `\`${owner}/${repo}\`: ${name.reason}` };
  if (pull !== undefined && ref !== undefined) return { ok: false, problem: 'name a pull request (`#PR`) or a ref (`@ref`), not both' };
  if (ref !== undefined && !isValidRefName(ref)) return { ok: false, problem: `\`@${ref}\` is not a branch, tag or commit name` };
  if (pull !== undefined && !/^[1-9]\d*$/.test(pull)) return { ok: false, problem: 'pull request numbers start at 1 and are written without leading zeros' };
  const cwd = normalisePath(path ?? '');
  if (!cwd.ok) return { ok: false, problem: `path \`${path ?? ''}\`: ${cwd.reason}` };
  if (request === '') return { ok: false, problem: 'say what you want done after the repository' };
  if (request.length > MAX_REQUEST_CHARS) return { ok: false, problem: `the request is longer than ${MAX_REQUEST_CHARS} characters` };
  const pullNumber = pull === undefined ? undefined : Number(pull);
  return {
    ok: true,
    command: {
      owner,
      repo,
      ...(pullNumber === undefined ? {} : { pullNumber }),
      ...(ref === undefined ? {} : { ref }),
      cwd: cwd.path,
      paths,
      request,
      skills: collectSkills(request),
    },
  };
}

/** Leading `+path` words, validated like `paths` on the REST API; the rest is the request. */
function focusWords(text: string): { ok: true; paths: string[]; request: string } | { ok: false; problem: string } {
  const paths: string[] = [];
  let rest = text;
  for (let word = /^\+(\S*)(?:\s+|$)/.exec(rest); word; word = /^\+(\S*)(?:\s+|$)/.exec(rest)) {
    const path = FocusPathSchema.safeParse(word[1] ?? '');
    if (!path.success) return { ok: false, problem: `path \`+${word[1] ?? ''}\`: ${path.error.issues[0]?.message ?? 'not a path'}` };
    if (path.data === '') return { ok: false, problem: 'a `+path` names a file or directory: `+` alone names nothing' };
    paths.push(path.data);
    if (paths.length > FOCUS_LIMITS.named) return { ok: false, problem: `at most ${FOCUS_LIMITS.named} \`+path\` paths` };
    rest = rest.slice(word[0].length);
  }
  return { ok: true, paths, request: rest.trim() };
}

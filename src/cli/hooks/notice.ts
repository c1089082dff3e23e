/**
 * @module cli/hooks/notice
 * How a hook tells the person something went wrong without failing the session, in each agent's
 * documented way. Claude Code, Codex and Gemini CLI show a JSON `systemMessage` to the user (exit
 * 0); Copilot documents no user message in a hook's JSON, but shows the stderr of a hook that
 * exits 2 as a warning and goes on ("Treated as a warning by default"). Node built-ins only and
 * no schema: the `groundwork` launcher prints these on a Node too old for the rest of the CLI.
 *
 * Sources: Claude Code 2.1.332's hook output schema (`systemMessage`: "Warning message shown to the
 * user"); openai/codex 0.171.0 `session-start.command.output` schema (`systemMessage`); Gemini CLI
 * 0.61.0 docs/hooks/reference.md "Common output fields"; github/docs@05da5bc
 * content/copilot/reference/hooks-reference.md "Exit codes for command hooks".
 */
import type { ClientName } from '../../context/client.ts';
import { jsonOutput } from '../json-output.ts';

/** The agents whose hook protocol groundwork speaks, by their client names (context/client). */
export const HOOK_CLIENTS = ['claude-code', 'codex', 'gemini-cli', 'copilot'] as const satisfies readonly ClientName[];
export type HookClient = (typeof HOOK_CLIENTS)[number];

/** What a hook prints and how it exits. */
export interface HookReply {
  stdout: string;
  stderr: string;
  exit: number;
}

/** Nothing at all: outside a repository, or nothing new to say. Gemini CLI would show stderr text as a message. */
export const SILENT: HookReply = { stdout: '', stderr: '', exit: 0 };

/** A one-line notice for the person, never a failed session. `message` is one line, without the `groundwork: ` prefix. */
export function hookNotice(client: HookClient, message: string): HookReply {
  const line = `groundwork: ${oneLine(message)}`;
  if (client === 'copilot') return { stdout: '', stderr: `${line}\n`, exit: 2 };
  return { stdout: jsonOutput({ systemMessage: line }), stderr: `${line}\n`, exit: 0 };
}

export function isHookClient(name: string): name is HookClient {
  return (HOOK_CLIENTS as readonly string[]).includes(name);
}

/** Whitespace runs (newlines too) become one space; at most 500 characters. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim().slice(0, 500);
}

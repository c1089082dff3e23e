/**
 * Each agent's hook protocol against the shapes the agent documents: hook inputs as the docs (or
 * the agent's own schemas) show them are read into the facts groundwork uses, every reply
 * groundwork prints is one the agent's output schema accepts, and every notice is the agent's
 * documented way to tell the user without failing the session. Fixtures follow the agents' own
 * examples and schemas: Claude Code 2.1.332 (code.claude.com/docs/en/hooks and the schemas in its
 * bundle), Codex 0.171.0 (its generated hook schemas), Gemini CLI 0.61.0 (docs/hooks/reference.md)
 * and GitHub Copilot (docs.github.com hooks reference).
 */
import { describe, expect, it } from 'vitest';
import { CLAUDE_CODE_SOURCES } from '../../src/cli/hooks/claude-code.ts';
import { CODEX_SOURCES } from '../../src/cli/hooks/codex.ts';
import { COPILOT_SOURCES } from '../../src/cli/hooks/copilot.ts';
import { GEMINI_CLI_SOURCES } from '../../src/cli/hooks/gemini-cli.ts';
import { inputByHand, inputSchema } from '../../src/cli/hooks/hook-input.ts';
import { HOOK_CLIENTS, hookNotice, type HookClient } from '../../src/cli/hooks/notice.ts';
import type { HookEvent } from '../../src/cli/hooks/protocol.ts';
import { HOOK_PROTOCOLS } from '../../src/cli/hooks/protocols.ts';
import { describeIssues } from '../../src/context/zod-issues.ts';

const CWD = '/home/dev/src/my-app/services/auth';

/** Hook inputs as each agent documents them, by event; the source varies per case. */
const FIXTURES: Record<HookClient, Partial<Record<HookEvent, (source?: string) => Record<string, unknown>>>> = {
  'claude-code': {
    'session-start': (source = 'startup') => ({
      session_id: 'abc123',
      transcript_path: '/home/dev/.claude/projects/my-app/00893aaf-19fa-41d2-8238-13269b9b3ca0.jsonl',
      cwd: CWD,
      permission_mode: 'default',
      hook_event_name: 'SessionStart',
      source,
      model: 'claude-sonnet-4-6',
    }),
    'prompt-submit': () => ({
      session_id: 'abc123',
      transcript_path: '/home/dev/.claude/projects/my-app/00893aaf-19fa-41d2-8238-13269b9b3ca0.jsonl',
      cwd: CWD,
      permission_mode: 'default',
      hook_event_name: 'UserPromptSubmit',
      prompt: 'Write a function to calculate the factorial of a number',
    }),
  },
  codex: {
    'session-start': (source = 'startup') => ({
      session_id: '0199a213-81c0-7800-8aa1-bbab2a035a53',
      transcript_path: null,
      cwd: CWD,
      hook_event_name: 'SessionStart',
      model: 'gpt-5.5-codex',
      permission_mode: 'default',
      source,
    }),
    'prompt-submit': () => ({
      session_id: '0199a213-81c0-7800-8aa1-bbab2a035a53',
      transcript_path: '/home/dev/.codex/sessions/2026/12/06/rollout.jsonl',
      cwd: CWD,
      hook_event_name: 'UserPromptSubmit',
      model: 'gpt-5.5-codex',
      permission_mode: 'default',
      prompt: 'Fix the flaky login test',
      turn_id: 'turn-1',
    }),
  },
  'gemini-cli': {
    'session-start': (source = 'startup') => ({
      session_id: 'c4d8c2b1-5a4f-4c8e-9a3b-2f1e0d9c8b7a',
      transcript_path: '/home/dev/.gemini/tmp/my-app/chats/session.json',
      cwd: CWD,
      hook_event_name: 'SessionStart',
      timestamp: '2026-12-06T10:00:00.000Z',
      source,
    }),
    'prompt-submit': () => ({
      session_id: 'c4d8c2b1-5a4f-4c8e-9a3b-2f1e0d9c8b7a',
      transcript_path: '/home/dev/.gemini/tmp/my-app/chats/session.json',
      cwd: CWD,
      hook_event_name: 'BeforeAgent',
      timestamp: '2026-12-06T10:00:05.000Z',
      prompt: 'Fix the flaky login test',
    }),
  },
  copilot: {
    'session-start': (source = 'new') => ({ sessionId: '714bfd7c-a8ef-4bde-8bea-ec39ceec45e8', timestamp: 1774281852263, cwd: CWD, source, initialPrompt: 'Fix the flaky login test' }),
  },
};

const SOURCES: Record<HookClient, readonly string[]> = { 'claude-code': CLAUDE_CODE_SOURCES, codex: CODEX_SOURCES, 'gemini-cli': GEMINI_CLI_SOURCES, copilot: COPILOT_SOURCES };

const eventsOf = (client: HookClient) => Object.keys(HOOK_PROTOCOLS[client].events) as HookEvent[];

describe('each agent hook protocol', () => {
  it('answers session-start for every agent, and prompt-submit where the agent documents context from it (not Copilot)', () => {
    expect(Object.fromEntries(HOOK_CLIENTS.map((client) => [client, eventsOf(client)]))).toEqual({
      'claude-code': ['session-start', 'prompt-submit'],
      codex: ['session-start', 'prompt-submit'],
      'gemini-cli': ['session-start', 'prompt-submit'],
      copilot: ['session-start'],
    });
    expect(HOOK_PROTOCOLS['gemini-cli'].events['prompt-submit']?.agentEvent).toBe('BeforeAgent');
    expect(HOOK_PROTOCOLS.copilot.events['session-start']?.agentEvent).toBe('sessionStart');
  });

  it('documents compact where the agent sends it after compaction (Claude Code, Codex), and not where it does not', () => {
    expect(CLAUDE_CODE_SOURCES).toContain('compact');
    expect(CODEX_SOURCES).toContain('compact');
    expect(GEMINI_CLI_SOURCES).not.toContain('compact');
    expect(COPILOT_SOURCES).not.toContain('compact');
  });

  for (const client of HOOK_CLIENTS) {
    describe(client, () => {
      for (const event of eventsOf(client)) {
        const spec = HOOK_PROTOCOLS[client].events[event];
        const fixture = FIXTURES[client][event];
        if (!spec || !fixture) throw new Error(`no fixture for ${client} ${event}`);

        it(`reads the documented ${spec.agentEvent} input${event === 'session-start' ? ', every documented source' : ''}`, () => {
          for (const source of event === 'session-start' ? SOURCES[client] : [undefined]) {
            const parsed = inputSchema(spec.input).safeParse(fixture(source));
            expect(parsed.success, parsed.success ? '' : describeIssues(parsed.error, '')).toBe(true);
            expect(parsed.data).toEqual({ cwd: CWD, sessionId: expect.any(String), ...(source === undefined ? {} : { source }) });
            // The check by hand takes it too, with the same facts.
            expect(inputByHand(spec.input, fixture(source))).toStrictEqual(parsed.data);
          }
        });

        it(`prints ${spec.agentEvent} output the agent's schema accepts, with the context whole`, () => {
          const context = '<groundwork-context boundary="0123456789abcdef">\nRun `npm test`.\n</groundwork-context boundary="0123456789abcdef">\n\u202e and a line\u2028separator';
          const reply = spec.reply(context);
          expect(reply).toMatchObject({ stderr: '', exit: 0 });
          const output = spec.output().parse(JSON.parse(reply.stdout));
          const text = client === 'copilot' ? (output as { additionalContext?: string }).additionalContext : (output as { hookSpecificOutput?: { hookEventName: string; additionalContext?: string } }).hookSpecificOutput?.additionalContext;
          expect(text).toBe(context);
          if (client !== 'copilot') expect((output as { hookSpecificOutput: { hookEventName: string } }).hookSpecificOutput.hookEventName).toBe(spec.agentEvent);
          // Raw bidi and separator characters are escaped in the bytes, as in every JSON the CLI prints.
          expect(reply.stdout).not.toMatch(/[\u202e\u2028]/);
        });

        it(`names the field of a bad ${spec.agentEvent} input, whichever it is (never cwd for another field's fault)`, () => {
          const base = fixture(event === 'session-start' ? SOURCES[client][0] : undefined);
          const sessionKey = client === 'copilot' ? 'sessionId' : 'session_id';
          const cases: Array<[Record<string, unknown>, string]> = [
            [{ ...base, cwd: undefined }, 'cwd'],
            [{ ...base, cwd: '' }, 'cwd'],
            [{ ...base, cwd: `/${'a'.repeat(5000)}` }, 'cwd'],
            [{ ...base, cwd: 7 }, 'cwd'],
            [{ ...base, [sessionKey]: 'x'.repeat(300) }, sessionKey],
            [{ ...base, [sessionKey]: undefined }, sessionKey],
          ];
          if (event === 'session-start') cases.push([{ ...base, source: 'x'.repeat(100) }, 'source'], [{ ...base, source: undefined }, 'source']);
          if (client !== 'copilot') cases.push([{ ...base, hook_event_name: event === 'session-start' ? 'UserPromptSubmit' : 'SessionStart' }, 'hook_event_name']);
          if (event === 'prompt-submit') cases.push([{ ...base, prompt: 12 }, 'prompt']);
          for (const [input, field] of cases) {
            const parsed = inputSchema(spec.input).safeParse(input);
            expect(parsed.success, `${field}: ${JSON.stringify(input).slice(0, 120)}`).toBe(false);
            expect(inputByHand(spec.input, input), field).toBeUndefined();
            if (!parsed.success) expect(parsed.error.issues.map((issue) => issue.path.join('.'))).toEqual([field]);
          }
        });
      }

      it('tells the user without failing the session, in the way the agent documents', () => {
        const notice = hookNotice(client, 'cannot read /srv/repo:\nnot a git repository');
        if (client === 'copilot') {
          // Exit 2 is "treated as a warning": stderr is shown to the user and the run continues.
          expect(notice).toEqual({ stdout: '', stderr: 'groundwork: cannot read /srv/repo: not a git repository\n', exit: 2 });
          return;
        }
        expect(notice.exit).toBe(0);
        const output = HOOK_PROTOCOLS[client].events['session-start']?.output().parse(JSON.parse(notice.stdout));
        expect(output).toEqual({ systemMessage: 'groundwork: cannot read /srv/repo: not a git repository' });
      });
    });
  }
});

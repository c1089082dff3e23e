import { describe, expect, it } from 'vitest';
import { toAnthropic } from '../../src/context/formats/anthropic.ts';
import { FORMATS, formatRequest } from '../../src/context/formats/format.ts';
import { toOpenAIChat } from '../../src/context/formats/openai-chat.ts';
import { toOpenAIResponses } from '../../src/context/formats/openai-responses.ts';
import { promptText, sharedPrefix } from '../../src/context/formats/prompt-prefix.ts';
import type { TranscriptItem } from '../../src/context/transcript.ts';
import { CHOSEN, LATER_ITEMS, prompt, STABLE, SYSTEM, TASK, TASK_ITEM, TOOLS } from '../support/prompt.ts';

const cache = { type: 'ephemeral' };
const MEMORY = '<groundwork-context provider="memory">Builds need make 4.</groundwork-context>';

describe('Anthropic Messages', () => {
  it('renders system blocks, tools, alternating messages with paired tool blocks, and three cache breakpoints, exactly', () => {
    expect(toAnthropic(prompt())).toEqual({
      tools: TOOLS,
      system: [
        { type: 'text', text: SYSTEM[0] },
        { type: 'text', text: SYSTEM[1] },
        { type: 'text', text: SYSTEM[2], cache_control: cache },
      ],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: STABLE, cache_control: cache },
            { type: 'text', text: CHOSEN },
            { type: 'text', text: TASK },
          ],
        },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'I will read the Makefile.' },
            { type: 'tool_use', id: 'call_1', name: 'read_file', input: { path: 'Makefile' } },
            { type: 'tool_use', id: 'call_2', name: 'search_code', input: { query: 'build' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'call_1', content: 'all: build' },
            { type: 'tool_result', tool_use_id: 'call_2', content: 'search index unavailable', is_error: true },
            { type: 'text', text: MEMORY },
          ],
        },
        { role: 'assistant', content: [{ type: 'text', text: 'The build target exists.' }] },
        { role: 'user', content: [{ type: 'text', text: 'Now add a test.', cache_control: cache }] },
      ],
    });
  });

  it('puts tool results before text in a user message, whatever order they were appended in', () => {
    const items: TranscriptItem[] = [TASK_ITEM, LATER_ITEMS[1]!, { ...LATER_ITEMS[5]!, id: 'local:context:1' }, { ...LATER_ITEMS[3]!, id: 'late-result' }];
    const last = toAnthropic(prompt(items)).messages.at(-1);
    expect(last?.content.map((block) => block.type)).toEqual(['tool_result', 'text']);
  });

  it('leaves out blank text the API refuses, and merges the neighbours it separated', () => {
    const items: TranscriptItem[] = [
      { id: 'u1', type: 'message', role: 'user', content: 'first' },
      { id: 'a1', type: 'message', role: 'assistant', content: '  \n' },
      { id: 'u2', type: 'message', role: 'user', content: 'second' },
    ];
    expect(toAnthropic(prompt(items)).messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'first' }, { type: 'text', text: 'second', cache_control: cache }] },
    ]);
  });

  it('marks no commit-stable boundary when the first message has no leading commit-stable part, and never more than 4 breakpoints', () => {
    const taskFirst: TranscriptItem = { ...TASK_ITEM, content: [TASK, STABLE].join('\n\n'), parts: [{ text: TASK, stability: 'task' }, { text: STABLE, stability: 'commit' }] };
    for (const items of [[taskFirst], [TASK_ITEM], [TASK_ITEM, ...LATER_ITEMS], [{ id: 'u', type: 'message', role: 'user', content: 'plain' } as const]]) {
      const body = toAnthropic(prompt(items));
      const marked = JSON.stringify(body).match(/cache_control/g) ?? [];
      expect(marked.length).toBeLessThanOrEqual(4);
      if (items[0] === taskFirst) expect(body.messages[0]?.content.map((block) => 'cache_control' in block)).toEqual([false, true]);
    }
    // Turn 0 alone: tools+system, end of the commit-stable context, and the task (the last item).
    expect(JSON.stringify(toAnthropic(prompt([TASK_ITEM]))).match(/cache_control/g)).toHaveLength(3);
  });

  it('puts the prefix breakpoint on the last tool when there are no system blocks', () => {
    const body = toAnthropic(prompt([TASK_ITEM], { system: [] }));
    expect(body.tools.at(-1)).toMatchObject({ cache_control: cache });
    expect(body.system).toEqual([]);
  });
});

describe('OpenAI Responses', () => {
  it('renders instructions, input items paired by call_id, function tools and the cache key, exactly', () => {
    expect(toOpenAIResponses(prompt())).toEqual({
      tools: TOOLS.map((tool) => ({ type: 'function', name: tool.name, description: tool.description, parameters: tool.input_schema, strict: false })),
      instructions: SYSTEM.join('\n\n'),
      input: [
        { type: 'message', role: 'user', content: TASK_ITEM.content },
        { type: 'message', role: 'assistant', content: 'I will read the Makefile.' },
        { type: 'function_call', call_id: 'call_1', name: 'read_file', arguments: '{"path":"Makefile"}' },
        { type: 'function_call', call_id: 'call_2', name: 'search_code', arguments: '{"query":"build"}' },
        { type: 'function_call_output', call_id: 'call_1', output: 'all: build' },
        { type: 'function_call_output', call_id: 'call_2', output: 'search index unavailable' },
        { type: 'message', role: 'user', content: MEMORY },
        { type: 'message', role: 'assistant', content: 'The build target exists.' },
        { type: 'message', role: 'user', content: 'Now add a test.' },
      ],
      prompt_cache_key: 'groundwork-0123456789abcdef0123456789abcdef',
    });
  });
});

describe('OpenAI Chat Completions', () => {
  it('renders system messages, one assistant message per reply with tool_calls, and tool messages by tool_call_id, exactly', () => {
    expect(toOpenAIChat(prompt())).toEqual({
      tools: TOOLS.map((tool) => ({ type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.input_schema } })),
      messages: [
        ...SYSTEM.map((content) => ({ role: 'system', content })),
        { role: 'user', content: [STABLE, CHOSEN, TASK].join('\n\n') },
        {
          role: 'assistant',
          content: 'I will read the Makefile.',
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '{"path":"Makefile"}' } },
            { id: 'call_2', type: 'function', function: { name: 'search_code', arguments: '{"query":"build"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: 'all: build' },
        { role: 'tool', tool_call_id: 'call_2', content: 'search index unavailable' },
        { role: 'user', content: MEMORY },
        { role: 'assistant', content: 'The build target exists.' },
        { role: 'user', content: 'Now add a test.' },
      ],
      prompt_cache_key: 'groundwork-0123456789abcdef0123456789abcdef',
    });
  });

  it('keeps two texts of one reply as two text parts, and a reply of tool calls only without content', () => {
    const items: TranscriptItem[] = [
      TASK_ITEM,
      { id: 'a1', type: 'message', role: 'assistant', content: 'One.' },
      { id: 'a2', type: 'message', role: 'assistant', content: 'Two.' },
      { id: 'u', type: 'message', role: 'user', content: 'Go on.' },
      LATER_ITEMS[1]!,
    ];
    const messages = toOpenAIChat(prompt(items)).messages.slice(SYSTEM.length + 1);
    expect(messages).toEqual([
      { role: 'assistant', content: [{ type: 'text', text: 'One.' }, { type: 'text', text: 'Two.' }] },
      { role: 'user', content: 'Go on.' },
      { role: 'assistant', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '{"path":"Makefile"}' } }] },
    ]);
  });
});

describe('a cache-stable prefix in every format', () => {
  it("makes turn n's request a prefix of turn n+1's", () => {
    for (const format of FORMATS) {
      for (let n = 1; n <= LATER_ITEMS.length; n++) {
        const before = promptText(formatRequest(format, prompt([TASK_ITEM, ...LATER_ITEMS.slice(0, n - 1)])));
        const after = promptText(formatRequest(format, prompt([TASK_ITEM, ...LATER_ITEMS.slice(0, n)])));
        expect(sharedPrefix(before, after).share, `${format}, item ${n}`).toBe(1);
      }
    }
  });

  it('shares everything up to the task-dependent context between two tasks on one commit', () => {
    const other: TranscriptItem = {
      ...TASK_ITEM,
      content: [STABLE, '<groundwork-task>Write docs.</groundwork-task>'].join('\n\n'),
      parts: [
        { text: STABLE, stability: 'commit' },
        { text: '<groundwork-task>Write docs.</groundwork-task>', stability: 'task' },
      ],
    };
    for (const format of FORMATS) {
      const a = promptText(formatRequest(format, prompt([TASK_ITEM])));
      const b = promptText(formatRequest(format, prompt([other])));
      const shared = a.slice(0, sharedPrefix(a, b).bytes);
      expect(shared, format).toContain('Use tabs.');
      expect(shared, format).toContain(SYSTEM[2]);
      expect(shared, format).not.toContain('Fix the build');
    }
  });

  it('leaves cache markers out of the prompt text, since they move as the conversation grows', () => {
    const text = promptText(formatRequest('anthropic', prompt()));
    expect(text).not.toContain('cache_control');
    expect(text).toContain('"tool_use_id":"call_2"');
  });
});

describe('mailbox items', () => {
  const MAILBOX = '<groundwork-mailbox from="@octocat">\nAlso cover logout.\n</groundwork-mailbox>';
  const followUp: TranscriptItem = { id: 'local:mailbox:1', type: 'mailbox', role: 'user', from: '@octocat', content: MAILBOX, receivedAt: '2026-11-20T12:00:00.000Z' };
  const items: TranscriptItem[] = [TASK_ITEM, { id: 'a1', type: 'message', role: 'assistant', content: 'Done.' }, followUp];

  it('reach every vendor as user text after the reply, in transcript order', () => {
    expect(toAnthropic(prompt(items)).messages.at(-1)).toEqual({ role: 'user', content: [{ type: 'text', text: MAILBOX, cache_control: cache }] });
    expect(toOpenAIResponses(prompt(items)).input.at(-1)).toEqual({ type: 'message', role: 'user', content: MAILBOX });
    expect(toOpenAIChat(prompt(items)).messages.at(-1)).toEqual({ role: 'user', content: MAILBOX });
  });

  it('extend the request they are appended to, so the cached prefix holds', () => {
    for (const format of FORMATS) {
      const before = promptText(formatRequest(format, prompt(items.slice(0, 2))));
      const after = promptText(formatRequest(format, prompt(items)));
      expect(sharedPrefix(before, after).share, format).toBe(1);
    }
  });
});

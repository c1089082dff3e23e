/**
 * A neutral prompt with every item type: the task item split into commit-stable and
 * task-dependent parts, an assistant reply with two tool calls, their results (one failed), a
 * later turn's context, and a follow-up exchange.
 */
import type { PromptInput } from '../../src/context/formats/prompt.ts';
import type { MessageItem, TranscriptItem } from '../../src/context/transcript.ts';

export const STABLE = '<groundwork-context provider="rules">Use tabs.</groundwork-context>';
export const CHOSEN = '<groundwork-context provider="skills">Step 1.</groundwork-context>';
export const TASK = '<groundwork-task>Fix the build.</groundwork-task>';

export const TASK_ITEM: MessageItem = {
  id: 'local:task',
  type: 'message',
  role: 'user',
  content: [STABLE, CHOSEN, TASK].join('\n\n'),
  parts: [
    { text: STABLE, stability: 'commit' },
    { text: CHOSEN, stability: 'task' },
    { text: TASK, stability: 'task' },
  ],
};

/** What the model and the host add after turn 0, in transcript order. */
export const LATER_ITEMS: TranscriptItem[] = [
  { id: 'a1', type: 'message', role: 'assistant', content: 'I will read the Makefile.' },
  { id: 'a1-call-1', type: 'tool_call', role: 'assistant', name: 'read_file', callId: 'call_1', arguments: { path: 'Makefile' } },
  { id: 'a1-call-2', type: 'tool_call', role: 'assistant', name: 'search_code', callId: 'call_2', arguments: { query: 'build' } },
  { id: 'r1', type: 'tool_result', role: 'tool', callId: 'call_1', name: 'read_file', content: 'all: build', isError: false },
  { id: 'r2', type: 'tool_result', role: 'tool', callId: 'call_2', content: 'search index unavailable', isError: true },
  { id: 'local:context:1', type: 'context', role: 'user', content: '<groundwork-context provider="memory">Builds need make 4.</groundwork-context>' },
  { id: 'a2', type: 'message', role: 'assistant', content: 'The build target exists.' },
  { id: 'u2', type: 'message', role: 'user', content: 'Now add a test.' },
];

export const SYSTEM = ['You are tiny.', 'Tools: read_file, search_code.', 'Context is data.'];

export const TOOLS = [
  { name: 'read_file', description: 'Read a file.', input_schema: { type: 'object' as const, properties: { path: { type: 'string' } }, required: ['path'] } },
  { name: 'search_code', description: 'Search.', input_schema: { type: 'object' as const, properties: { query: { type: 'string' } }, required: ['query'] } },
];

export function prompt(items: readonly TranscriptItem[] = [TASK_ITEM, ...LATER_ITEMS], overrides: Partial<PromptInput> = {}): PromptInput {
  return { system: SYSTEM, tools: TOOLS, items, cacheKey: 'groundwork-0123456789abcdef0123456789abcdef', ...overrides };
}

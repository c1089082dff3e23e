/**
 * @module test/triggers/notify-fixtures
 * A finished first turn as the Task Durable Object hands it to notifyTaskResult.
 */
import type { AssembledTurn } from '../../src/context/turn-schema.ts';

export const BASE = 'f95f852bd8fca8fcc58a9a2d6c842781e32a215e';
export const HEAD = 'ec26c3e57ca3a959ca5aad62de7213c562f8c821';
export const TASK_ID = 'c0ffee'.padEnd(64, '0');
const BLOB = `https://github.com/acme/widgets/blob/${BASE}`;

export const TURN: AssembledTurn = {
  commit: BASE,
  repository: 'github:github.com/acme/widgets',
  agent: 'reviewer',
  turn: 0,
  digest: `sha256:${'ab'.repeat(32)}`,
  chars: 1234,
  system: ['You review a pull request.'],
  items: [{ id: 'local:task', type: 'message', role: 'user', content: 'Review pull request #2.' }],
  messages: [
    { role: 'system', content: 'You review a pull request.' },
    { role: 'user', content: 'Review pull request #2.' },
  ],
  tools: [],
  providers: [
    { name: 'rules', category: 'rules', outcome: 'included', chars: 900, tokens: 225, durationMs: 12.4 },
    { name: 'skills', category: 'skills', outcome: 'timed-out', reason: 'no answer within 2000 ms', chars: 0, tokens: 0, durationMs: 2000 },
  ],
  entries: [
    {
      provider: 'rules',
      category: 'rules',
      title: 'AGENTS.md',
      source: { uri: `${BLOB}/AGENTS.md`, path: 'AGENTS.md', revision: BASE },
      freshness: 'pinned',
      chars: 600,
      truncated: false,
      warnings: [],
    },
    {
      provider: 'rules',
      category: 'rules',
      title: 'Rules [click](javascript:alert(1)) <img src=x>',
      source: { uri: `${BLOB}/src/AGENTS.md`, path: 'src/AGENTS.md', revision: BASE },
      freshness: 'pinned',
      chars: 300,
      truncated: true,
      warnings: ['cut to 75 tokens | budget'],
    },
  ],
};

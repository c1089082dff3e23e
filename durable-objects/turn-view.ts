/**
 * @module durable-objects/turn-view
 * The assembled-turn JSON of a stored turn: turn 0's system blocks, then the transcript up to
 * and including that turn, with the turn's own digest, outcomes and entries.
 */
import type { AssembledTurn } from '../src/context/turn-schema.ts';
import { transcriptMessages, type TranscriptItem } from '../src/context/transcript.ts';
import type { TurnRecord } from './task-store.ts';

export function turnView(first: TurnRecord, record: TurnRecord, transcript: readonly TranscriptItem[]): AssembledTurn {
  const system = first.system.map((message) => message.content);
  const messages = transcriptMessages(system, transcript);
  return {
    commit: record.commit,
    repository: first.repository,
    agent: record.agent,
    ...(record.agentHash ? { agentHash: record.agentHash } : {}),
    ...(record.client ? { client: record.client } : {}),
    turn: record.turn,
    digest: record.digest,
    chars: messages.reduce((sum, message) => sum + message.content.length, 0),
    system,
    items: [...transcript],
    messages,
    tools: record.tools,
    providers: record.providers,
    entries: record.entries,
    ...(record.settings ? { settings: record.settings } : {}),
    ...(first.focus && first.focus.paths.length > 0 ? { focusPaths: first.focus.paths } : {}),
    ...(record.moved && record.moved.paths.length + record.moved.skills.length + record.moved.rules.length > 0 ? { moved: { paths: record.moved.paths, skills: record.moved.skills, rules: record.moved.rules } } : {}),
  };
}

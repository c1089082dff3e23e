/**
 * @module context/formats/prompt
 * What every format adapter translates: the neutral prompt of one turn. Built from the
 * assembled-turn JSON; the adapters themselves are pure and synchronous.
 */
import { sha256Hex } from '../../lib/sha256.ts';
import type { Tool } from '../agents.ts';
import type { TranscriptItem } from '../transcript.ts';
import type { AssembledTurn } from '../turn-schema.ts';

export interface PromptInput {
  /** Host system blocks, in order. */
  system: readonly string[];
  tools: readonly Tool[];
  /** The transcript, first item first. */
  items: readonly TranscriptItem[];
  /**
   * The same for every request of one agent on one repository and commit: the requests whose
   * prefix (system blocks, tools, commit-stable context) is the same. An opaque hash, so a
   * vendor never sees a repository's name or URL through it.
   */
  cacheKey: string;
}

export async function promptFromTurn(turn: AssembledTurn): Promise<PromptInput> {
  return { system: turn.system, tools: turn.tools, items: turn.items, cacheKey: await promptCacheKey(turn) };
}

export async function promptCacheKey(turn: Pick<AssembledTurn, 'agent' | 'repository' | 'commit'>): Promise<string> {
  const hex = await sha256Hex(JSON.stringify([turn.agent, turn.repository, turn.commit]));
  return `groundwork-${hex.slice(0, 32)}`;
}

/**
 * @module inspector/window
 * What filled one turn's request, as a picture: a segment per unit of the request in the order
 * the vendor reads it (tool definitions, the host's system blocks, then the transcript, the
 * host's messages split into their sections), each sized in tokens by the one counter every
 * budget uses, grouped as the request is ordered (system, commit-stable context, task-dependent
 * context, the task, the transcript, this turn's new context), with where the prefix every task
 * on the commit shares ends, and for a later turn where the previous turn's request ended (what
 * the vendor's cache can hold for this task). Built from the turn record and the transcript
 * alone: a page load reads no repository.
 *
 * Tokens add up exactly: inside one message, a segment's tokens are the rise of
 * `ceil(bytes so far / 4)` across it, so the segments of a message sum to `countTokens` of the
 * whole message, and the picture's total is the sum over tools and messages.
 */
import { parseSections } from '../context/section-parse.ts';
import { BYTES_PER_TOKEN, countTokens, utf8Length } from '../context/tokens.ts';
import { PART_SEPARATOR, TASK_ITEM_ID, messageView, type TranscriptItem } from '../context/transcript.ts';
import type { InspectedTurn, TimelineItem } from '../tasks/inspection.ts';

/** What colours a segment: the provider category of a context section, or what else it is. */
export const SEGMENT_KINDS = ['host', 'system', 'rules', 'skills', 'memory', 'notice', 'task', 'transcript'] as const;
export type SegmentKind = (typeof SEGMENT_KINDS)[number];

/** The parts of a request, in the order a cache-stable request has them. */
export const SEGMENT_GROUPS = ['system', 'commit-context', 'task-context', 'task', 'transcript', 'turn-context'] as const;
export type SegmentGroup = (typeof SEGMENT_GROUPS)[number];

export const GROUP_LABELS: Readonly<Record<SegmentGroup, string>> = {
  system: 'system blocks and tools',
  'commit-context': 'commit-stable context',
  'task-context': 'task-dependent context',
  task: 'the task',
  transcript: 'the transcript so far',
  'turn-context': 'this turn’s new context',
};

export const KIND_LABELS: Readonly<Record<SegmentKind, string>> = {
  host: 'host system blocks and tools',
  system: 'system providers (inventory, facts, freshness)',
  rules: 'rules',
  skills: 'skills',
  memory: 'memory',
  notice: 'notices',
  task: 'the task',
  transcript: 'transcript (replies, tool calls and results, follow-ups)',
};

export interface Segment {
  label: string;
  kind: SegmentKind;
  group: SegmentGroup;
  tokens: number;
  /** The anatomy section it links to (`t<turn>-s<index>`), when the page shows one. */
  anchor?: string | undefined;
}

export interface LegendRow {
  kind: SegmentKind;
  tokens: number;
  /** Of the total, 0..1. */
  share: number;
}

export interface WindowModel {
  segments: Segment[];
  total: number;
  /** Tokens up to where the prefix every task on the commit and working directory shares ends. */
  sharedPrefix: number;
  /** Tokens of the previous turn's request, which this one starts with (later turns only). */
  earlierRequest?: number | undefined;
  /** One row per kind present, in `SEGMENT_KINDS` order. */
  legend: LegendRow[];
}

/** The anchor of section `index` of turn `turn`'s host item in the prompt anatomy. */
export const sectionAnchor = (turn: number, index: number): string => `t${turn}-s${index}`;

/**
 * The transcript turn `turn`'s request carried, each item with the turn it was appended in:
 * items appended in earlier turns, then its own host item; the task item first (as the task
 * store reads it).
 */
export function requestItems(transcript: readonly TimelineItem[], turn: number, hostItemId: string | null): TimelineItem[] {
  const items = transcript.filter((entry) => entry.turn < turn || entry.item.id === hostItemId);
  return [...items.filter((entry) => entry.item.id === TASK_ITEM_ID), ...items.filter((entry) => entry.item.id !== TASK_ITEM_ID)];
}

export interface WindowInput {
  turn: Pick<InspectedTurn, 'turn' | 'tools'>;
  /** Turn 0's system blocks: every request has them. */
  system: readonly string[];
  /** What `requestItems` gives for this turn. */
  items: readonly TimelineItem[];
  /** Host item id -> the turn whose context it is, for anchors and groups. */
  hostTurns: ReadonlyMap<string, number>;
}

export function contextWindow(input: WindowInput): WindowModel {
  const { turn } = input;
  const segments: Segment[] = [];
  if (turn.tools.length > 0) {
    segments.push({ label: `tool definitions (${turn.tools.length})`, kind: 'host', group: 'system', tokens: countTokens(JSON.stringify(turn.tools)) });
  }
  input.system.forEach((block, i) => segments.push({ label: `system message ${i + 1}`, kind: 'host', group: 'system', tokens: countTokens(block) }));

  const sum = (): number => segments.reduce((total, segment) => total + segment.tokens, 0);
  let earlierRequest: number | undefined;
  for (const { turn: appended, item } of input.items) {
    const made = input.hostTurns.get(item.id);
    // The previous turn's request is a prefix of this one: items appended before it, and its own host item.
    const carried = made !== undefined ? made < turn.turn : appended < turn.turn - 1;
    if (turn.turn > 0 && earlierRequest === undefined && !carried) earlierRequest = sum();
    segments.push(...itemSegments(item, made, turn.turn));
  }
  if (turn.turn > 0) earlierRequest ??= sum();

  const total = sum();
  const legend = SEGMENT_KINDS.flatMap((kind): LegendRow[] => {
    const of = segments.filter((segment) => segment.kind === kind);
    const tokens = of.reduce((count, segment) => count + segment.tokens, 0);
    return of.length > 0 ? [{ kind, tokens, share: total > 0 ? tokens / total : 0 }] : [];
  });
  return { segments, total, sharedPrefix: prefixTokens(segments), ...(earlierRequest === undefined ? {} : { earlierRequest }), legend };
}

/** The system blocks and tools, then the leading commit-stable sections: what tasks on the commit share. */
function prefixTokens(segments: readonly Segment[]): number {
  let tokens = 0;
  for (const segment of segments) {
    if (segment.group !== 'system' && segment.group !== 'commit-context') break;
    tokens += segment.tokens;
  }
  return tokens;
}

function itemSegments(item: TranscriptItem, made: number | undefined, turn: number): Segment[] {
  const content = messageView(item).content;
  const pieces = made === undefined ? undefined : hostPieces(item, content, made, turn);
  const units = pieces ?? [{ label: transcriptLabel(item), kind: 'transcript' as const, group: 'transcript' as const, start: 0 }];
  // Each piece runs to the next one's start; the tokens of the message are split without loss.
  return units.map((unit, i) => {
    const end = units[i + 1]?.start ?? content.length;
    const tokens = Math.ceil(utf8Length(content.slice(0, end)) / BYTES_PER_TOKEN) - Math.ceil(utf8Length(content.slice(0, unit.start)) / BYTES_PER_TOKEN);
    return { label: unit.label, kind: unit.kind, group: unit.group, tokens, ...(unit.anchor ? { anchor: unit.anchor } : {}) };
  });
}

interface Piece {
  label: string;
  kind: SegmentKind;
  group: SegmentGroup;
  start: number;
  anchor?: string;
}

/** A host item's sections, each with its group: by the part it lies in (turn 0), or as a later turn's context. */
function hostPieces(item: TranscriptItem, content: string, made: number, turn: number): Piece[] | undefined {
  const sections = parseSections(content);
  if (!sections) return undefined;
  const parts = item.type === 'message' ? (item.parts ?? []) : [];
  const stabilityAt = (offset: number): 'commit' | 'task' => {
    let end = 0;
    for (const part of parts) {
      end += part.text.length + PART_SEPARATOR.length;
      if (offset < end) return part.stability;
    }
    return 'task';
  };
  return sections.map((section, index): Piece => {
    const attribute = (name: string) => section.attributes.find(([key]) => key === name)?.[1] ?? '';
    const anchor = sectionAnchor(made, index);
    const later: SegmentGroup = made === turn ? 'turn-context' : 'transcript';
    if (section.tag === 'groundwork-task') return { label: 'the task', kind: 'task', group: made === 0 ? 'task' : later, start: section.start, anchor };
    const group: SegmentGroup = made === 0 ? (stabilityAt(section.start) === 'commit' ? 'commit-context' : 'task-context') : later;
    if (section.tag === 'groundwork-notice') return { label: `notice from ${attribute('provider')}`, kind: 'notice', group, start: section.start, anchor };
    if (section.tag === 'groundwork-context') {
      const category = attribute('category');
      const kind: SegmentKind = category === 'system' || category === 'rules' || category === 'skills' || category === 'memory' ? category : 'transcript';
      return { label: `${attribute('provider')}: ${attribute('title')}`, kind, group, start: section.start, anchor };
    }
    return { label: section.tag, kind: 'transcript', group, start: section.start, anchor };
  });
}

function transcriptLabel(item: TranscriptItem): string {
  switch (item.type) {
    case 'tool_call':
      return `tool call ${item.name} (${item.id})`;
    case 'tool_result':
      return `tool result (${item.id})`;
    case 'mailbox':
      return `follow-up from ${item.from} (${item.id})`;
    default:
      return `${item.role} ${item.type} (${item.id})`;
  }
}

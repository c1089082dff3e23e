/**
 * @module providers/memory/entry
 * One knowledge object as a context entry. The host's lines come first (what it is, who wrote it,
 * when it must be reviewed, what it applies to, and the provenance verdict), then the statement,
 * so text inside a statement can never pose as the host's verdict about it. The section's own
 * labels carry the source (`path@revision` or uri), `review-by` and freshness `snapshot`:
 * knowledge is read from a store that changes independently of the commit.
 *
 * Stability is `task`: which objects a task sees depends on its request, its working directory
 * and the day (review dates), and the store changes between tasks on the same commit, so memory
 * must never sit in the prefix tasks share.
 */
import type { EntryInput } from '../../context/entry.ts';
import type { Knowledge } from '../../context/knowledge.ts';
import { countTokens } from '../../context/tokens.ts';
import { MAX_PROVENANCE_CHARS, type Provenance } from './provenance.ts';

/** The longest provenance line (ASCII) and its line break. */
const PROVENANCE_TOKENS = countTokens('x'.repeat(MAX_PROVENANCE_CHARS + 1));

/** Tokens an entry may need before its provenance is known: everything but the verdict, plus room for the longest verdict. */
export function reservedTokens(knowledge: Knowledge): number {
  return countTokens(body(knowledge, '')) + PROVENANCE_TOKENS;
}

export function knowledgeEntry(knowledge: Knowledge, provenance: Provenance): EntryInput {
  const { uri, path, revision } = knowledge.source;
  return {
    title: knowledgeTitle(knowledge),
    body: body(knowledge, provenance.line),
    source: { uri, ...(path ? { path } : {}), ...(revision ? { revision } : {}), ...(provenance.blob ? { blob: provenance.blob } : {}) },
    freshness: 'snapshot',
    reviewBy: knowledge.reviewBy,
    warnings: provenance.warning ? [provenance.warning] : [],
    stability: 'task',
  };
}

/** An entry's title names the object, so the ledger can find it again (the read-back before applying it). */
export function knowledgeTitle(knowledge: Pick<Knowledge, 'kind' | 'id'>): string {
  return `${knowledge.kind} ${knowledge.id}`;
}

const TITLE = /^(\S+) (k_[0-9a-f]{64}_[0-9a-f]{16})$/;

/** The kind and id a memory entry's title names, or undefined for any other title. */
export function parseKnowledgeTitle(title: string): { kind: string; id: string } | undefined {
  const match = TITLE.exec(title);
  return match ? { kind: match[1] ?? '', id: match[2] ?? '' } : undefined;
}

function body(knowledge: Knowledge, provenanceLine: string): string {
  const made = `${knowledge.kind} by ${knowledge.author}, recorded ${knowledge.createdAt.slice(0, 10)}${knowledge.version > 1 ? ` (version ${knowledge.version})` : ''}, review by ${knowledge.reviewBy}`;
  const applies = knowledge.paths ? [`applies to: ${knowledge.paths.join(', ')}`] : [];
  return [made, ...applies, provenanceLine, '', knowledge.statement].join('\n');
}

/**
 * @module knowledge/next-version
 * The version an edit or a retirement makes of the current one. Each version names who made it
 * and when; the object's kind and repository never change, and a retirement keeps what it retires.
 */
import { KnowledgeSchema, type Knowledge } from '../context/knowledge.ts';
import type { KnowledgeChange } from './input.ts';

export function nextVersion(current: Knowledge, change: KnowledgeChange, made: { id: string; createdAt: string }): Knowledge {
  const edit = change.kind === 'edit' ? change : undefined;
  const paths = edit?.paths ?? current.paths;
  return KnowledgeSchema.parse({
    id: made.id,
    repository: current.repository,
    kind: current.kind,
    statement: edit?.statement ?? current.statement,
    // `paths: []` in an edit clears them: the knowledge then applies to the whole repository.
    ...(paths && paths.length > 0 ? { paths } : {}),
    source: edit?.source ?? current.source,
    author: change.author,
    createdAt: made.createdAt,
    reviewBy: edit ? edit.reviewBy : current.reviewBy,
    status: edit ? 'active' : 'retired',
    ...(change.kind === 'retire' ? { retiredReason: change.reason } : {}),
    version: current.version + 1,
    supersedes: current.id,
  });
}

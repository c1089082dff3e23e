/**
 * @module checks/apply-knowledge
 * Before acting on something remembered: every knowledge object the task's memory provider
 * rendered, checked again now. In the store: still the current version, edited since (another
 * version replaced it), retired since, or gone. Its review date: passed or not, today. Its cited
 * source (`path@revision`): the blob it cited compared with the same path where the task's ref
 * points now (unchanged, changed, deleted), by blob id. `stop` naming each object that no longer
 * holds; `unknown` when one could not be checked or nothing was rendered.
 */
import { pinnedFrom, targetRef } from '../freshness/check.ts';
import { compareSource } from '../freshness/compare.ts';
import { utcDate } from '../lib/utc-date.ts';
import type { Snapshot } from '../sources/snapshot.ts';
import type { ActionCheck } from './action.ts';
import type { CheckReads, KnowledgeVersions, RenderedKnowledge } from './check-task.ts';
import { decide, short } from './verdict.ts';
import type { ApplyKnowledgeDetails, KnowledgeCheck } from './details.ts';

/** Objects checked per answer (each is one read of the store); the rest are counted. */
export const MAX_KNOWLEDGE_CHECKED = 50;
/** Cited revisions whose blob was not recorded, read per answer (each may be a fetch of that commit). */
const MAX_CITED_REVISIONS = 8;

type Finding = { stop: string[]; unknown: string[]; go: string[] };

export const applyKnowledgeCheck: ActionCheck<ApplyKnowledgeDetails> = {
  plan(task) {
    const ref = targetRef(pinnedFrom({ ...(task.ref === undefined ? {} : { ref: task.ref }), ...(task.pullRequest ? { pullRequest: task.pullRequest } : {}) }));
    const objects = task.knowledge.slice(0, MAX_KNOWLEDGE_CHECKED).map(unread);
    return {
      subject: { repository: task.repository, ref, commit: null, ...(task.pullRequest ? { pullRequest: task.pullRequest.number } : {}) },
      details: { ref, current: null, objects, unchecked: Math.max(0, task.knowledge.length - MAX_KNOWLEDGE_CHECKED) },
    };
  },

  async read(plan, { task, reads, signal }) {
    const { ref, unchecked } = plan.details;
    if (task.knowledge.length === 0) {
      return { verdict: 'unknown', reasons: ['no knowledge reached the model in this task: there is nothing here to re-verify'], details: plan.details };
    }
    const resolved = await reads.source.resolve(ref, { signal });
    const current = resolved.status === 'ok' ? resolved.commit : null;
    const refProblem = resolved.status === 'ok' ? undefined : resolved.status === 'missing' ? `${ref} does not name a commit now` : `could not resolve ${ref}: ${resolved.reason}`;
    const after = current === null ? undefined : reads.source.snapshot(current, { signal });
    const cited = citedSnapshots(reads, signal);
    const today = utcDate(reads.now());
    const objects = await Promise.all(
      task.knowledge.slice(0, MAX_KNOWLEDGE_CHECKED).map((rendered) => checkOne(rendered, { reads, signal, today, after, cited, ref, refProblem })),
    );

    const found: Finding = { stop: [], unknown: [], go: [] };
    for (const { check, reasons } of objects) found[check.verdict === 'holds' ? 'go' : check.verdict === 'unverifiable' ? 'unknown' : 'stop'].push(...reasons);
    if (unchecked > 0) found.unknown.push(`${unchecked} more knowledge object${unchecked === 1 ? ' was' : 's were'} not checked (at most ${MAX_KNOWLEDGE_CHECKED} per check)`);
    return { ...decide(found), subject: { ...plan.subject, commit: current }, details: { ref, current, objects: objects.map((one) => one.check), unchecked } };
  },
};

interface Context {
  reads: CheckReads;
  signal: AbortSignal;
  today: string;
  after: Snapshot | undefined;
  cited: (revision: string) => Snapshot | undefined;
  ref: string;
  refProblem: string | undefined;
}

async function checkOne(rendered: RenderedKnowledge, context: Context): Promise<{ check: KnowledgeCheck; reasons: string[] }> {
  const name = `${rendered.kind} ${rendered.id}`;
  const [stored, source] = await Promise.all([storeState(rendered, context), sourceState(rendered, context)]);
  const reviewBy = stored.reviewBy ?? rendered.reviewBy ?? null;
  const reviewPassed = reviewBy === null ? null : reviewBy < context.today;
  const stale: string[] = [...stored.stale];
  const unsure: string[] = [...stored.unsure];
  if (reviewPassed) stale.push(`${name} is past its review date ${reviewBy}`);
  if (source.status === 'changed') stale.push(`${name} cites ${source.path}@${short(source.revision ?? '')}, which changed: ${context.ref} at ${short(context.after?.commit ?? '')} has another version`);
  if (source.status === 'deleted') stale.push(`${name} cites ${source.path}@${short(source.revision ?? '')}, which ${context.ref} no longer has at ${short(context.after?.commit ?? '')}`);
  if (source.status === 'unverifiable') unsure.push(`could not compare what ${name} cites: ${source.reason ?? 'no reason given'}`);
  const verdict = stale.length > 0 ? 'no-longer-holds' : unsure.length > 0 ? 'unverifiable' : 'holds';
  const check: KnowledgeCheck = { id: rendered.id, kind: rendered.kind, verdict, store: stored.state, ...(stored.currentId ? { currentId: stored.currentId } : {}), reviewBy, reviewPassed, source };
  if (verdict === 'no-longer-holds') return { check, reasons: stale };
  if (verdict === 'unverifiable') return { check, reasons: unsure };
  const cites = source.status === 'unchanged' ? `${source.path} unchanged at ${short(context.after?.commit ?? '')}` : 'it cites no path@revision';
  return { check, reasons: [`${name} holds: current in the store, review by ${reviewBy ?? 'none'}, ${cites}`] };
}

interface StoreState {
  state: KnowledgeCheck['store'];
  currentId?: string;
  reviewBy?: string;
  stale: string[];
  unsure: string[];
}

async function storeState(rendered: RenderedKnowledge, { reads, signal }: Context): Promise<StoreState> {
  const name = `${rendered.kind} ${rendered.id}`;
  let lineage: KnowledgeVersions;
  try {
    lineage = reads.knowledge ? await reads.knowledge(rendered.id, signal) : { status: 'failed', reason: 'this host keeps no knowledge store' };
  } catch (error) {
    if (signal.aborted) throw error;
    lineage = { status: 'failed', reason: error instanceof Error ? error.message : String(error) };
  }
  if (lineage.status === 'failed') return { state: 'unverifiable', stale: [], unsure: [`could not read ${name} in the knowledge store: ${lineage.reason}`] };
  const latest = lineage.status === 'ok' ? lineage.versions.at(-1) : undefined;
  if (!latest) return { state: 'missing', stale: [`${name} is no longer in the knowledge store`], unsure: [] };
  if (latest.status === 'retired') {
    return { state: 'retired', ...(latest.id === rendered.id ? {} : { currentId: latest.id }), stale: [`${name} was retired since${latest.retiredReason ? ` (${latest.retiredReason})` : ''}`], unsure: [] };
  }
  if (latest.id !== rendered.id) return { state: 'edited', currentId: latest.id, reviewBy: latest.reviewBy, stale: [`${name} was edited since: version ${latest.version} (${latest.id}) replaced it`], unsure: [] };
  return { state: 'current', reviewBy: latest.reviewBy, stale: [], unsure: [] };
}

async function sourceState(rendered: RenderedKnowledge, context: Context): Promise<KnowledgeCheck['source']> {
  const { path, revision, blob } = rendered.source;
  if (!path || !revision) return { status: 'not-cited', blob: null };
  const cited = { path, revision };
  if (!context.after) return { ...cited, blob: blob ?? null, status: 'unverifiable', reason: context.refProblem ?? `${context.ref} was not resolved` };
  const before = blob === undefined ? context.cited(revision) : context.reads.source.snapshot(revision, { signal: context.signal });
  if (!before) return { ...cited, blob: null, status: 'unverifiable', reason: `more than ${MAX_CITED_REVISIONS} cited revisions without a recorded blob in one check` };
  const tracked = { provider: 'memory', kind: 'file' as const, title: `${rendered.kind} ${rendered.id}`, path, revision, ...(blob === undefined ? {} : { blob }) };
  const compared = await compareSource(tracked, { before, after: context.after, signal: context.signal });
  return {
    ...cited,
    blob: compared.blob,
    status: compared.status,
    ...(compared.currentBlob ? { currentBlob: compared.currentBlob } : {}),
    ...(compared.reason ? { reason: compared.reason } : {}),
  };
}

/** Snapshots of cited revisions whose blob must be read, one per revision, bounded. */
function citedSnapshots(reads: CheckReads, signal: AbortSignal): (revision: string) => Snapshot | undefined {
  const opened = new Map<string, Snapshot>();
  return (revision) => {
    const known = opened.get(revision);
    if (known) return known;
    if (opened.size >= MAX_CITED_REVISIONS) return undefined;
    const snapshot = reads.source.snapshot(revision, { signal });
    opened.set(revision, snapshot);
    return snapshot;
  };
}

function unread(rendered: RenderedKnowledge): KnowledgeCheck {
  const { path, revision, blob } = rendered.source;
  const source: KnowledgeCheck['source'] = path && revision ? { path, revision, status: 'unverifiable', blob: blob ?? null, reason: 'not read' } : { status: 'not-cited', blob: null };
  return { id: rendered.id, kind: rendered.kind, verdict: 'unverifiable', store: 'unverifiable', reviewBy: rendered.reviewBy ?? null, reviewPassed: null, source };
}

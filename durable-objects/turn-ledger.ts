/**
 * @module durable-objects/turn-ledger
 * The turn protocol over a TaskStore. Turn metadata and the transcript item are two separate
 * writes, in this order:
 *
 *   1. the turn record (digest, outcomes, and the item it implies, content included)
 *   2. the transcript item
 *
 * A crash before 1 leaves nothing: the turn is assembled again. A crash between 1 and 2 leaves a
 * record whose item is missing: the next begin appends it from the record (no provider rerun, same
 * digest). After 2 the fast path applies. Appends are keyed by item id, so a repair can never
 * duplicate an item.
 */
import type { TaskRow, TaskStore, TurnRecord } from './task-store.ts';

/** Named points between writes where tests inject a crash. */
export type CrashPoint = 'after-turn-record' | 'after-transcript-item';

export type Assembler = (task: TaskRow, turn: number) => Promise<TurnRecord>;

export type BeginResult =
  | { status: 'ok'; record: TurnRecord; path: 'fast' | 'repaired' | 'assembled' }
  | { status: 'not-found' }
  | { status: 'conflict'; next: number }
  /** The turn's context item would take the transcript past its cap; nothing was stored. */
  | { status: 'too-large'; message: string };

export interface LedgerOptions {
  store: TaskStore;
  assemble: Assembler;
  crash?: (point: CrashPoint) => void;
}

export class TurnLedger {
  readonly #options: LedgerOptions;
  /** One assembly per turn at a time: concurrent callers share its promise. */
  readonly #inflight = new Map<number, Promise<BeginResult>>();

  constructor(options: LedgerOptions) {
    this.#options = options;
  }

  begin(turn: number): Promise<BeginResult> {
    const running = this.#inflight.get(turn);
    if (running) return running;
    const started = this.#begin(turn).finally(() => this.#inflight.delete(turn));
    this.#inflight.set(turn, started);
    return started;
  }

  async #begin(turn: number): Promise<BeginResult> {
    const { store, assemble, crash } = this.#options;
    const task = store.task();
    if (!task) return { status: 'not-found' };

    const stored = store.turn(turn);
    if (stored) {
      if (stored.item === null || store.hasItem(stored.item.id)) return { status: 'ok', record: stored, path: 'fast' };
      // Its room was kept for it since the record was stored (the writer counts what turns owe).
      const repaired = store.transcript.append([stored.item], turn);
      if (repaired.status === 'too-large') return repaired;
      return { status: 'ok', record: stored, path: 'repaired' };
    }

    const next = store.nextTurn();
    if (turn !== next) return { status: 'conflict', next };

    const record = await assemble(task, turn);
    // The cap is checked before the record is stored: a turn whose item cannot join the
    // transcript stores nothing, rather than a record the transcript can never hold.
    const refused = record.item ? store.transcript.check([record.item]) : undefined;
    if (refused) return refused;
    // Another caller cannot have stored this turn meanwhile: they share this promise.
    store.putTurn(record);
    crash?.('after-turn-record');
    if (record.item) store.transcript.append([record.item], turn);
    crash?.('after-transcript-item');
    return { status: 'ok', record, path: 'assembled' };
  }
}

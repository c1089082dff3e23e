import { env } from 'cloudflare:workers';
import { runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { type TaskStore, type TaskRow, type TurnRecord } from '../../durable-objects/task-store.ts';
import { taskStoreOf } from '../support/task-object.ts';
import { TurnLedger, type CrashPoint } from '../../durable-objects/turn-ledger.ts';
import { TaskRequestSchema } from '../../src/tasks/task-request.ts';
import { contextItemId, TASK_ITEM_ID } from '../../src/tasks/transcript.ts';

const request = TaskRequestSchema.parse({ origin: 'api', tenant: 'api:acme', repo: 'o/r', request: 'x' });

/** An assembler whose context for turn n is non-empty unless n is listed as empty; counts runs. */
function countingAssembler(emptyTurns: number[] = []) {
  const runs: number[] = [];
  const assemble = async (_task: TaskRow, turn: number): Promise<TurnRecord> => {
    runs.push(turn);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const empty = emptyTurns.includes(turn);
    const id = turn === 0 ? TASK_ITEM_ID : contextItemId(turn);
    return {
      turn,
      digest: `sha256:${String(turn).repeat(64).slice(0, 64)}`,
      chars: 10,
      tokens: 3,
      item: empty ? null : { id, type: turn === 0 ? 'message' : 'context', role: 'user', content: `context of turn ${turn}` },
      agent: 'entry',
      commit: 'a'.repeat(40),
      repository: 'file:///repo',
      system: turn === 0 ? [{ role: 'system', content: 'host' }] : [],
      tools: [],
      providers: [],
      entries: [],
      createdAt: 1,
    };
  };
  return { runs, assemble };
}

/** Runs `body` inside a fresh Task object, against its real SQLite storage. */
function inFreshObject<T>(body: (store: TaskStore, sql: SqlStorage) => Promise<T>): Promise<T> {
  const stub = env.TASKS.get(env.TASKS.newUniqueId());
  return runInDurableObject(stub, async (_, state) => {
    const store = taskStoreOf(state.storage.sql);
    store.insertTask('t', request, 0, 1);
    return body(store, state.storage.sql);
  });
}

function itemCount(sql: SqlStorage, id: string): number {
  return Number(sql.exec('SELECT COUNT(*) AS n FROM transcript WHERE item_id = ?', id).one()['n']);
}

const crashAt = (point: CrashPoint) => (reached: CrashPoint) => {
  if (reached === point) throw new Error(`crash ${point}`);
};

describe('turn ledger crash recovery', () => {
  for (const point of ['after-turn-record', 'after-transcript-item'] as const) {
    for (const turn of [0, 1]) {
      it(`ends consistent after a crash ${point} on turn ${turn}, without rerunning providers`, async () => {
        await inFreshObject(async (store, sql) => {
          const assembler = countingAssembler();
          if (turn > 0) await new TurnLedger({ store, assemble: assembler.assemble }).begin(0);
          const crashing = new TurnLedger({ store, assemble: assembler.assemble, crash: crashAt(point) });
          await expect(crashing.begin(turn)).rejects.toThrow(`crash ${point}`);

          const recovered = await new TurnLedger({ store, assemble: assembler.assemble }).begin(turn);
          expect(recovered).toMatchObject({ status: 'ok', path: point === 'after-turn-record' ? 'repaired' : 'fast' });
          expect(assembler.runs.filter((t) => t === turn)).toHaveLength(1);
          const id = turn === 0 ? TASK_ITEM_ID : contextItemId(turn);
          expect(itemCount(sql, id)).toBe(1);
          expect(store.turn(turn)?.item?.id).toBe(id);

          // And it stays consistent: the next begin is the fast path.
          expect(await new TurnLedger({ store, assemble: assembler.assemble }).begin(turn)).toMatchObject({ path: 'fast' });
          expect(itemCount(sql, id)).toBe(1);
        });
      });
    }
  }

  it('assembles again when the crash came before the turn record', async () => {
    await inFreshObject(async (store, sql) => {
      const assembler = countingAssembler();
      let failures = 1;
      const flaky = async (task: TaskRow, turn: number) => {
        if (failures-- > 0) throw new Error('isolate lost mid-assembly');
        return assembler.assemble(task, turn);
      };
      const ledger = new TurnLedger({ store, assemble: flaky });
      await expect(ledger.begin(0)).rejects.toThrow('isolate lost');
      expect(store.turn(0)).toBeUndefined();
      expect(await ledger.begin(0)).toMatchObject({ status: 'ok', path: 'assembled' });
      expect(itemCount(sql, TASK_ITEM_ID)).toBe(1);
    });
  });

  it('takes the fast path only when the transcript holds the expected item', async () => {
    await inFreshObject(async (store, sql) => {
      const assembler = countingAssembler();
      const ledger = new TurnLedger({ store, assemble: assembler.assemble });
      await ledger.begin(0);
      await ledger.begin(1);
      sql.exec('DELETE FROM transcript WHERE item_id = ?', contextItemId(1));
      expect(await ledger.begin(1)).toMatchObject({ path: 'repaired' });
      expect(itemCount(sql, contextItemId(1))).toBe(1);
      expect(assembler.runs).toEqual([0, 1]);
    });
  });

  it('records an empty turn without an item and takes the fast path after it', async () => {
    await inFreshObject(async (store, sql) => {
      const assembler = countingAssembler([1]);
      const ledger = new TurnLedger({ store, assemble: assembler.assemble });
      await ledger.begin(0);
      expect(await ledger.begin(1)).toMatchObject({ path: 'assembled', record: { item: null } });
      expect(await ledger.begin(1)).toMatchObject({ path: 'fast' });
      expect(Number(sql.exec('SELECT COUNT(*) AS n FROM transcript').one()['n'])).toBe(1);
    });
  });

  it('runs providers once for concurrent begins of one turn', async () => {
    await inFreshObject(async (store, sql) => {
      const assembler = countingAssembler();
      const ledger = new TurnLedger({ store, assemble: assembler.assemble });
      await ledger.begin(0);
      const results = await Promise.all(Array.from({ length: 5 }, () => ledger.begin(1)));
      expect(assembler.runs).toEqual([0, 1]);
      expect(new Set(results.map((r) => (r.status === 'ok' ? r.record.digest : r.status))).size).toBe(1);
      expect(itemCount(sql, contextItemId(1))).toBe(1);
    });
  });

  it('refuses a turn that is not next', async () => {
    await inFreshObject(async (store) => {
      const ledger = new TurnLedger({ store, assemble: countingAssembler().assemble });
      expect(await ledger.begin(1)).toEqual({ status: 'conflict', next: 0 });
    });
  });
});

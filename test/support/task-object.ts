import { FocusLog } from '../../durable-objects/focus-log.ts';
import { migrate } from '../../durable-objects/task-schema.ts';
import { TaskStore } from '../../durable-objects/task-store.ts';

/** The store of a Task object with its schema in place, for tests that drive the object's parts directly. */
export function taskStoreOf(sql: SqlStorage): TaskStore {
  migrate(sql);
  return new TaskStore(sql);
}

/** The object's own tables by name: the platform's (`_cf_…`) and SQLite's (`sqlite_…`) left out. */
export function ownTables(sql: SqlStorage): string[] {
  return sql
    .exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name")
    .toArray()
    .map((row) => row.name);
}

/**
 * What a task assembler reads from its Task object's own state (durable-objects/task-assembler's
 * deps): the store's pin, history and records, the object's posted focus, the clock, a 10 s
 * deadline. Tests add the registry, the source and anything they observe.
 */
export function storedAssemblerDeps(store: TaskStore, sql: SqlStorage) {
  return {
    pinCommit: (commit: string) => store.pinCommit(commit),
    history: (turn: number) => store.history(turn),
    record: (turn: number) => store.turn(turn),
    posted: new FocusLog(sql),
    now: () => Date.now(),
    deadlineMs: 10_000,
  };
}

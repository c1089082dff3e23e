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

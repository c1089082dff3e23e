/**
 * @module test/support/warm-worker
 * Loads what a task's attempt and the API's task routes load on first use (the Worker imports them
 * lazily, issue 28), so a fresh runner pays for that in a hook (60 s) rather than inside the first
 * test that assembles (30 s), most of which a loaded machine can spend importing.
 */
export async function warmWorker(): Promise<void> {
  await Promise.all([import('../../durable-objects/task-wiring.ts'), import('../../src/routes/groups/api.ts')]);
}

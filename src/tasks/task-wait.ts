/**
 * @module tasks/task-wait
 * How long a host may wait for a task to settle in one request (`GET /tasks/:id?wait=`, the MCP
 * tools): long enough to cover a typical assembly, short enough that no proxy or client times the
 * request out first. A longer wait is another request, which answers at once if the task settled.
 */
export const MAX_TASK_WAIT_SECONDS = 30;

/**
 * @module context/order-policy
 * How the first user message is laid out, by name. An agent configuration picks one
 * (`contextOrder`) and the renderer follows it; the order inside each context stage is always the
 * runner's (category, position, provider name, entry order), so every policy is deterministic.
 *
 * - `cache-stable` (the default): what every task on the same repository, commit and working
 *   directory shares comes first (entries with `stability: 'commit'`: rules, the skills index,
 *   notices standing in for withheld reads), then the context chosen for this task (`'task'`:
 *   selected skills, pull request facts, memory), then the task. With the system blocks and
 *   tools (the same for every task of one agent) in front, a vendor's prompt cache can reuse
 *   everything up to the task-dependent context across tasks; later turns only append.
 * - `task-first`: the task, then the commit-stable and the task-dependent context. For hosts
 *   that want the task read first and do not rely on a prefix shared across tasks.
 */

/** One stretch of the first user message. */
export type Stage = 'commit-context' | 'task-context' | 'task';

export const ORDER_POLICY_NAMES = ['cache-stable', 'task-first'] as const;
export type OrderPolicy = (typeof ORDER_POLICY_NAMES)[number];

export const ORDER_POLICIES: Readonly<Record<OrderPolicy, readonly Stage[]>> = {
  'cache-stable': ['commit-context', 'task-context', 'task'],
  'task-first': ['task', 'commit-context', 'task-context'],
};

/**
 * @module tasks/task-intake
 * Where a trigger's delivery is stored before it is answered: one of sixteen
 * intake objects (durable-objects/task-intake), chosen by the first hex digit of the task's id,
 * which hand each delivery to its Task object after the answer. So the accept path writes one
 * row into a warm object instead of creating a Durable Object per delivery, and a burst arms one
 * alarm per shard instead of one per task (issue 28). Sixteen shards keep any one object far
 * below what a SQLite Durable Object writes per second, for a burst of any size GitHub sends.
 */
/** The intake shard of `taskId` (a Task object's hex id); its Task object asks the same one. */
export function intakeStub(env: Env, taskId: string): DurableObjectStub<import('../../durable-objects/task-intake.ts').TaskIntake> {
  // A Durable Object id is lowercase hex.
  return env.TASK_INTAKE.get(env.TASK_INTAKE.idFromName(`intake:${taskId[0]}`));
}

/** Where a keyed create stores its delivery: the intake shards, or (in tests) something that holds them. */
export interface DeliveryIntake {
  /** Stores `entry` (the Task object's `create` arguments as JSON) for `taskId` unless it is known. */
  accept(taskId: string, entry: string): Promise<import('../../durable-objects/task-intake.ts').IntakeAnswer>;
}

/** The intake shards of this deployment. */
export function shardIntake(env: Env): DeliveryIntake {
  return { accept: (taskId, entry) => intakeStub(env, taskId).accept(taskId, entry) };
}

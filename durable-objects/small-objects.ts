/**
 * @module durable-objects/small-objects
 * The four small Durable Object classes (a tenant's task index, a knowledge scope, a pull
 * request's tasks, an intake shard), loaded together by their lazy fronts (src/index.ts): they
 * share most of what they load (the configuration, zod), and one module for the four keeps the
 * upload in fewer chunks.
 */
export { KnowledgeScope } from './knowledge.ts';
export { PullRequestTasks } from './pull-request-tasks.ts';
export { TaskIntake } from './task-intake.ts';
export { TaskIndex } from './task-index.ts';

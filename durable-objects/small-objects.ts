/**
 * @module durable-objects/small-objects
 * The three small Durable Object classes (a tenant's task index, a knowledge scope, a pull
 * request's tasks), loaded together by their lazy fronts (src/index.ts): they share most of what
 * they load (the configuration, zod), and one module for the three keeps the upload in fewer chunks.
 */
export { KnowledgeScope } from './knowledge.ts';
export { PullRequestTasks } from './pull-request-tasks.ts';
export { TaskIndex } from './task-index.ts';

/**
 * @module triggers/github/delivery-result
 * What a verified delivery did; the route turns it into the HTTP answer.
 */
import type { TaskStatus } from '../../tasks/task-request.ts';

export type DeliveryResult =
  | { kind: 'task'; taskId: string; status: TaskStatus; duplicate: boolean }
  /** A follow-up appended to an existing task's mailbox (`duplicate`: this delivery was appended before). */
  | { kind: 'mailbox'; taskId: string; itemId: string; duplicate: boolean }
  | { kind: 'installation'; installationId: number; action: string; repositories: number }
  | { kind: 'ignored'; reason: string };

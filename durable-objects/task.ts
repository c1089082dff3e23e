/**
 * @module durable-objects/task
 * One Durable Object per Task. The turn ledger lands with the Task issue; the class is declared
 * now so the SQLite migration and binding exist from the first deploy.
 */
import { DurableObject } from 'cloudflare:workers';

export class TaskObject extends DurableObject<Env> {}

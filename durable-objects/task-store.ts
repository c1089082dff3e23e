/**
 * @module durable-objects/task-store
 * Typed access to one Task object's SQLite rows. Parameterised SQL only; every row is parsed with
 * zod on the way out, so a corrupt row is an error here rather than a surprise later. The
 * transcript is appended to only through `transcript` (see transcript-writer), never here.
 */
import * as z from 'zod';
import { lazySchema } from '../src/lib/lazy-schema.ts';
import type { EarlierEntry } from '../src/context/provider.ts';
import { AgentHashSchema, EntrySummarySchema, MessageSchema, ProviderOutcomeSchema } from '../src/context/turn-schema.ts';
import { AgentConfigSchema, ToolSchema, type AgentConfig } from '../src/context/agents.ts';
import { SettingsReportSchema } from '../src/context/settings/report.ts';
import { GitHubUsageSchema } from '../src/sources/github/usage.ts';
import { TaskRequestSchema, TASK_STATUSES, type TaskRequest, type TaskStatus } from '../src/tasks/task-request.ts';
import { HostItemSchema, TASK_ITEM_ID, TranscriptItemSchema, type TranscriptItem } from '../src/context/transcript.ts';
import { TranscriptWriter } from './transcript-writer.ts';
import { deepFreeze } from '../src/lib/deep-freeze.ts';
import { TurnUsageSchema, type TurnUsage } from '../src/tasks/turn-usage.ts';

/**
 * The row's columns; `request` and `agent_config` stay JSON text here and are parsed once per
 * text by `TaskStore` (see `#documents`): they never change after the insert, and every RPC and
 * alarm step reads the task, so parsing them on each read was most of what reading cost.
 */
const TaskColumnsSchema = lazySchema(() => z.object({
  task_id: z.string(),
  request: z.string(),
  status: z.enum(TASK_STATUSES),
  status_reason: z.string().nullable(),
  attempts: z.number().int(),
  commit_sha: z.string().nullable(),
  created_at: z.number(),
  updated_at: z.number(),
  expires_at: z.number(),
  agent_config: z.string().nullable(),
}));
export type TaskRow = Omit<z.output<typeof TaskColumnsSchema>, 'request' | 'agent_config'> & {
  request: Readonly<TaskRequest>;
  /** The agent configuration resolved when the task was created; null for tasks stored before it was kept. */
  agent_config: Readonly<AgentConfig> | null;
};

/** The task's JSON columns parsed, keyed by their text; frozen, since every reader shares them. */
interface TaskDocuments {
  requestText: string;
  agentText: string | null;
  request: Readonly<TaskRequest>;
  agent: Readonly<AgentConfig> | null;
}

export const TurnRecordSchema = lazySchema(() => z.object({
  turn: z.number().int().nonnegative(),
  digest: z.string(),
  /** Characters and tokens of this turn's rendered context. */
  chars: z.number().int().nonnegative(),
  tokens: z.number().int().nonnegative(),
  /** The transcript item this turn appended; null for a turn n > 0 with nothing to say. */
  item: HostItemSchema.nullable(),
  agent: z.string(),
  /** The agent configuration's hash (`agentHash`); absent on records stored before it was kept. */
  agentHash: AgentHashSchema.optional(),
  /** The task's client label (context/client); absent for `none` and on records stored before clients. */
  client: z.string().optional(),
  commit: z.string().nullable(),
  /** The repository's identity; records stored before it was kept have none. */
  repository: z.string().nullable().default(null),
  /** Host system blocks, stored with turn 0 only. */
  system: z.array(MessageSchema),
  tools: z.array(ToolSchema),
  providers: z.array(ProviderOutcomeSchema),
  entries: z.array(EntrySummarySchema),
  /** Absent on turns stored before settings layers existed. */
  settings: SettingsReportSchema.optional(),
  createdAt: z.number(),
  /** What this turn's GitHub reads cost, for tasks read through the GitHub API. */
  github: GitHubUsageSchema.optional(),
  /** Turn 0: the focus paths it was assembled with (request, pull request, posted), and which are known files. */
  focus: z.object({ paths: z.array(z.string()), files: z.array(z.string()) }).optional(),
  /**
   * The focus posted on the task (`POST /tasks/:id/paths`) this turn took: everything up to
   * sequence number `through`, of which `paths` and `skills` were new since the previous turn.
   * Absent on turns stored before focus could be posted.
   */
  moved: z.object({ through: z.number().int().nonnegative(), paths: z.array(z.string()), skills: z.array(z.string()), rules: z.array(z.string()).default([]) }).optional(),
}));
export type TurnRecord = z.infer<typeof TurnRecordSchema>;

export class TaskStore {
  readonly #sql: SqlStorage;
  /** The transcript's only writer: every append goes through its cap check. */
  readonly transcript: TranscriptWriter;
  #documents: TaskDocuments | undefined;
  /** Turn records as last parsed, by turn, with the text they were parsed from (see `#parsedTurn`). */
  readonly #turns = new Map<number, { text: string; record: TurnRecord }>();
  /** Transcript items `requestTranscript` handed out or this object appended, by id (see `#parsedItem`). */
  readonly #items = new Map<string, { text: string; item?: TranscriptItem }>();

  constructor(sql: SqlStorage) {
    this.#sql = sql;
    // An item this object appended is its schema's output already: a later read of the same text
    // needs no second parse (turn 0's context item is read by the report and by the attempt).
    this.transcript = new TranscriptWriter(sql, (id, text) => this.#items.set(id, { text }));
  }

  task(): TaskRow | undefined {
    const row = this.#sql.exec('SELECT * FROM task WHERE singleton = 1').toArray()[0];
    if (!row) return undefined;
    const columns = TaskColumnsSchema.parse(row);
    const { request, agent } = this.#parsedDocuments(columns.request, columns.agent_config);
    return { ...columns, request, agent_config: agent };
  }

  /** A corrupt column still throws here, on every read, as the schema's parse did. */
  #parsedDocuments(requestText: string, agentText: string | null): TaskDocuments {
    const known = this.#documents;
    if (known && known.requestText === requestText && known.agentText === agentText) return known;
    const request = deepFreeze(TaskRequestSchema.parse(JSON.parse(requestText)));
    const agent = agentText === null ? null : deepFreeze(AgentConfigSchema.parse(JSON.parse(agentText)));
    this.#documents = { requestText, agentText, request, agent };
    return this.#documents;
  }

  /** `request` and `agent` as their schemas parsed them: the read that follows needs no second parse. */
  insertTask(taskId: string, request: TaskRequest, now: number, expiresAt: number, agent?: AgentConfig): void {
    const requestText = JSON.stringify(request);
    const agentText = agent === undefined ? null : JSON.stringify(agent);
    this.#sql.exec(
      `INSERT INTO task (singleton, task_id, request, status, attempts, created_at, updated_at, expires_at, agent_config)
       VALUES (1, ?, ?, 'pending', 0, ?, ?, ?, ?)`,
      taskId,
      requestText,
      now,
      now,
      expiresAt,
      agentText,
    );
    // What a later read would parse from the text just written, without validating it again.
    const parsedAgent: AgentConfig | null = agentText === null ? null : JSON.parse(agentText);
    this.#documents = { requestText, agentText, request: deepFreeze(JSON.parse(requestText) as TaskRequest), agent: parsedAgent && deepFreeze(parsedAgent) };
  }

  setStatus(status: TaskStatus, reason: string | null, now: number): void {
    this.#sql.exec('UPDATE task SET status = ?, status_reason = ?, updated_at = ? WHERE singleton = 1', status, reason, now);
  }

  /** Counts an attempt and marks the task `assembling` in one write; returns the attempt's number. */
  beginAttempt(now: number): number {
    const row = this.#sql
      .exec<{ attempts: number }>("UPDATE task SET attempts = attempts + 1, status = 'assembling', status_reason = NULL, updated_at = ? WHERE singleton = 1 RETURNING attempts", now)
      .toArray()[0];
    return row?.attempts ?? 0;
  }

  /** Pins the commit once; a later call cannot move it. */
  pinCommit(commit: string): string {
    this.#sql.exec('UPDATE task SET commit_sha = ? WHERE singleton = 1 AND commit_sha IS NULL', commit);
    return this.task()?.commit_sha ?? commit;
  }

  turn(turn: number): TurnRecord | undefined {
    const row = this.#sql.exec<{ record: string }>('SELECT record FROM turns WHERE turn = ?', turn).toArray()[0];
    return row ? this.#parsedTurn(turn, row.record) : undefined;
  }

  turns(): TurnRecord[] {
    return this.#sql
      .exec<{ turn: number; record: string }>('SELECT turn, record FROM turns ORDER BY turn')
      .toArray()
      .map((row) => this.#parsedTurn(row.turn, row.record));
  }

  /**
   * A stored turn is never rewritten, yet finishing one reads it several times (the report, the
   * check run, the index): the same text is parsed once, frozen, and handed out again (issue 56).
   * The row is read every time, so a turn deleted or written anew is seen, and a corrupt one
   * still throws on every read.
   */
  #parsedTurn(turn: number, text: string): TurnRecord {
    const known = this.#turns.get(turn);
    if (known && known.text === text) return known.record;
    const record = deepFreeze(TurnRecordSchema.parse(JSON.parse(text)));
    this.#turns.set(turn, { text, record });
    return record;
  }

  /** Every entry of the turns before `turn`, oldest first, as the ledger recorded them. */
  history(turn: number): EarlierEntry[] {
    return this.turns()
      .filter((record) => record.turn < turn)
      .flatMap((record) => record.entries.map(({ provider, category, title, source }) => ({ turn: record.turn, provider, category, title, source })));
  }

  /** The next turn to begin: one past the highest stored turn. */
  nextTurn(): number {
    const row = this.#sql.exec<{ next: number }>('SELECT COALESCE(MAX(turn) + 1, 0) AS next FROM turns').one();
    return row.next;
  }

  /** `record` as its schema's output: the reads that follow (the report, the check run) need no parse. */
  putTurn(record: TurnRecord): void {
    const text = JSON.stringify(record);
    this.#sql.exec('INSERT INTO turns (turn, record, created_at) VALUES (?, ?, ?)', record.turn, text, record.createdAt);
    // What a later read would parse from the text just written, without validating it again.
    this.#turns.set(record.turn, { text, record: deepFreeze(JSON.parse(text) as TurnRecord) });
  }

  /** What the model API reported for `turn`'s request, if a host posted it. */
  usage(turn: number): TurnUsage | undefined {
    const row = this.#sql.exec<{ record: string }>('SELECT record FROM usage WHERE turn = ?', turn).toArray()[0];
    return row ? TurnUsageSchema.parse(JSON.parse(row.record)) : undefined;
  }

  /** Every turn's reported usage, by turn. */
  usages(): Map<number, TurnUsage> {
    const rows = this.#sql.exec<{ turn: number; record: string }>('SELECT turn, record FROM usage ORDER BY turn').toArray();
    return new Map(rows.map((row) => [row.turn, TurnUsageSchema.parse(JSON.parse(row.record))]));
  }

  /** Records `usage` for `turn` unless one is recorded; returns the one that is. */
  putUsage(turn: number, usage: TurnUsage, now: number): TurnUsage {
    this.#sql.exec('INSERT INTO usage (turn, record, received_at) VALUES (?, ?, ?) ON CONFLICT(turn) DO NOTHING', turn, JSON.stringify(usage), now);
    return this.usage(turn) ?? usage;
  }

  hasItem(id: string): boolean {
    return this.#sql.exec('SELECT 1 FROM transcript WHERE item_id = ?', id).toArray().length > 0;
  }

  /** Every tool call and tool result, in transcript order: what pairing checks a new batch against. */
  toolItems(): TranscriptItem[] {
    return this.#sql
      .exec<{ item: string }>("SELECT item FROM transcript WHERE json_extract(item, '$.type') IN ('tool_call', 'tool_result') ORDER BY seq")
      .toArray()
      .map((row) => TranscriptItemSchema.parse(JSON.parse(row.item)));
  }

  /** The whole transcript in order, each item with the turn it was appended in. */
  timeline(): Array<{ turn: number; item: TranscriptItem }> {
    return this.#sql
      .exec<{ turn: number; item: string }>('SELECT turn, item FROM transcript ORDER BY seq')
      .toArray()
      .map((row) => ({ turn: row.turn, item: TranscriptItemSchema.parse(JSON.parse(row.item)) }));
  }

  /**
   * The transcript as the model saw it at the start of `turn`: everything appended during earlier
   * turns, plus this turn's own host item. Items appended after it are the answer to that turn.
   * The task item opens it, even when a follow-up reached the mailbox before turn 0 was built.
   */
  requestTranscript(turn: number, hostItemId: string | null): TranscriptItem[] {
    return this.#sql
      .exec<{ item_id: string; item: string }>('SELECT item_id, item FROM transcript WHERE turn < ? OR item_id = ? ORDER BY item_id = ? DESC, seq', turn, hostItemId ?? '', TASK_ITEM_ID)
      .toArray()
      .map((row) => this.#parsedItem(row.item_id, row.item));
  }

  /**
   * A stored item is never rewritten, yet every turn's report and read-back asks for the items
   * before it again: the same text is parsed once, frozen, and handed out again, like a turn. The
   * row is read every time, so an item written anew is parsed anew and a corrupt one still throws.
   */
  #parsedItem(id: string, text: string): TranscriptItem {
    const known = this.#items.get(id);
    if (known?.text === text && known.item) return known.item;
    const item = deepFreeze(known?.text === text ? (JSON.parse(text) as TranscriptItem) : TranscriptItemSchema.parse(JSON.parse(text)));
    this.#items.set(id, { text, item });
    return item;
  }
}


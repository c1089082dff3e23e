/**
 * @module mcp/call-context
 * Who is calling, as far as the protocol says, handed to every tool and resource a backend
 * serves: the one place a handler reads the client from (a default for assemble_context's
 * `client`, a log line). Under 2026-07-28 each request says it in `_meta`
 * (`io.modelcontextprotocol/clientInfo`, a SHOULD); under the legacy versions `initialize` says it
 * once, which only a process that outlives the handshake remembers (the stdio server), not the
 * Worker's stateless `/mcp`, whose later requests carry none.
 *
 * The client names itself: "self-reported ... intended for display, logging, and debugging";
 * servers "SHOULD NOT rely on them for security decisions" (2026-07-28 base protocol, `_meta`).
 * So it may choose a default, never grant anything.
 */
import { isRecord } from './json-rpc.ts';

export interface ClientInfo {
  name: string;
  version: string;
  title?: string;
}

export interface CallContext {
  era: 'modern' | 'legacy';
  /** The request's protocol version: its `_meta`'s (modern), or what `initialize` agreed (legacy; unknown on the stateless Worker). */
  protocolVersion?: string;
  client?: ClientInfo;
}

/** Longer names are cut: the value is the client's own text and ends up in logs and records. */
const MAX_CHARS = 200;

/** A client's `Implementation` object as far as it is usable: `name` and `version` text; anything else is no client. */
export function clientInfoOf(value: unknown): ClientInfo | undefined {
  if (!isRecord(value)) return undefined;
  const { name, version, title } = value;
  if (typeof name !== 'string' || typeof version !== 'string' || name.trim() === '') return undefined;
  return { name: name.slice(0, MAX_CHARS), version: version.slice(0, MAX_CHARS), ...(typeof title === 'string' ? { title: title.slice(0, MAX_CHARS) } : {}) };
}

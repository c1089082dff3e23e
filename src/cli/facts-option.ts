/**
 * @module cli/facts-option
 * `--facts FILE`: the host facts of a local task (runtime versions, a devbox, the CI in use), a
 * JSON array as `facts` on `POST /tasks` takes it, checked by the same schema, so a fact is
 * refused for the same reason on every surface, naming `facts[i].field`.
 */
import { readFileSync } from 'node:fs';
import { describeIssues } from '../context/zod-issues.ts';
import { HostFactsSchema, type HostFact } from '../context/host-facts.ts';

/** A facts file is at most this many bytes: 16 facts of 4,000 characters, their titles and sources. */
const MAX_FILE_BYTES = 256 * 1024;

export function readFactsOption(path: string | undefined): { ok: true; facts: HostFact[] } | { ok: false; error: string } {
  if (path === undefined) return { ok: true, facts: [] };
  let text: string;
  try {
    const bytes = readFileSync(path);
    if (bytes.byteLength > MAX_FILE_BYTES) return { ok: false, error: `--facts: ${path} is ${bytes.byteLength} bytes, over the ${MAX_FILE_BYTES} a facts file may have` };
    text = bytes.toString('utf8');
  } catch (error) {
    return { ok: false, error: `--facts: cannot read ${path}: ${error instanceof Error ? error.message : String(error)}` };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, error: `--facts: ${path} is not JSON (a JSON array of facts, as POST /tasks takes them)` };
  }
  const parsed = HostFactsSchema.safeParse(value);
  if (!parsed.success) return { ok: false, error: `--facts: ${describeIssues(parsed.error, 'facts')}` };
  return { ok: true, facts: parsed.data };
}

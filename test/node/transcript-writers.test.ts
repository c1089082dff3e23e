/**
 * The transcript cap holds on every path only if every append goes through the transcript
 * writer (`durable-objects/transcript-writer.ts`) and its one check. This reads the sources, so
 * a writer added later (later-turn rules for new focus paths, an MCP tool posting follow-ups)
 * that wrote the table itself fails here rather than in a task.
 */
import { describe, expect, it } from 'vitest';
import { projectSources } from './source-files.ts';

const THE_WRITER = 'durable-objects/transcript-writer.ts';
/** Statements that change the transcript table; the schema's own migration may upgrade rows in place. */
const WRITES = /\b(?:INSERT\s+(?:OR\s+\w+\s+)?INTO|REPLACE\s+INTO)\s+transcript\b/i;

describe('transcript writers', () => {
  it('append only through the transcript writer, which checks the cap', () => {
    const offenders = projectSources()
      .filter(({ file, text }) => file !== THE_WRITER && WRITES.test(text))
      .map(({ file }) => file);
    expect(offenders).toEqual([]);
    expect(projectSources().find(({ file }) => file === THE_WRITER)?.text).toMatch(WRITES);
  });
});

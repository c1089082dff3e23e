/**
 * The task page's picture of each turn's context window, its budgets and what they cut, the
 * prompt cache report, and the page fixes a new user asked for, through the real Worker and
 * Task object: a task with rules cut by its budget, a skill, memory, a reply, a follow-up and
 * reported usage.
 */
import { afterAll, describe, expect, inject, it } from 'vitest';
import { countTokens } from '../../src/context/tokens.ts';
import { AssembledTurnSchema } from '../../src/context/turn-schema.ts';
import { api } from '../support/api.ts';
import { listAll, remember } from '../knowledge/support.ts';
import { openPage, readyTask, textOf } from './support.ts';

/** Rules at the root and in src/, two skills (see test/support/hostile-repo.ts). */
const hostileRepo = () => `http://127.0.0.1:${inject('gitHttpPort')}/hostile.git`;

const STATEMENT = 'Run the database migrations before the integration tests, or they fail with missing tables and a confusing error.';

/** The markup of turn `n`'s section. */
function turnHtml(html: string, n: number): string {
  const start = html.indexOf(`<section id="turn-${n}"`);
  const next = html.indexOf('<section id="turn-', start + 1);
  const end = next > 0 ? next : html.indexOf('id="timeline"');
  return html.slice(start, end);
}

/** What the request of turn `n` holds, counted from the turn API the way the picture counts: tools, then each message. */
async function requestTokens(id: string, n: number): Promise<number> {
  const turn = AssembledTurnSchema.parse((await api('GET', `/tasks/${id}/turns/${n}`)).json);
  return (turn.tools.length > 0 ? countTokens(JSON.stringify(turn.tools)) : 0) + turn.messages.reduce((sum, message) => sum + countTokens(message.content), 0);
}

const segmentTokens = (html: string) => [...html.matchAll(/<rect class="seg [^"]*"[^>]*data-tokens="(\d+)"/g)].map((match) => Number(match[1]));
const svgTotal = (html: string) => Number(/<svg class="window"[^>]*data-total="(\d+)"/.exec(html)?.[1]);

afterAll(async () => {
  for (const k of await listAll(hostileRepo(), 'active')) await api('POST', `/knowledge/${k.id}/retire`, { body: { reason: 'test cleanup' } });
});

describe('the context window on the task page', () => {
  it('pictures every turn: segments that add up to the request, the shared prefix, the previous request, budgets, cuts and the cache', async () => {
    const knowledge = await remember({ repo: hostileRepo(), statement: STATEMENT });
    const { id, viewUrl } = await readyTask({ repo: hostileRepo(), cwd: 'src', request: 'Add a square root. Use $add-operation.', providers: { rules: { budget: 60 } } });
    await api('POST', `/tasks/${id}/transcript`, { body: { items: [{ type: 'message', id: 'reply-0', role: 'assistant', content: 'The build runs the tests first.' }] } });
    await api('POST', `/tasks/${id}/mailbox`, { body: { from: 'Ada', text: 'Also explain the release step.' } });
    expect((await api('POST', `/tasks/${id}/turns`, { body: { turn: 1 } })).status).toBe(200);
    const usage = await api('POST', `/tasks/${id}/turns/0/usage`, {
      body: { format: 'anthropic', model: 'claude-sonnet-4-5', usage: { input_tokens: 40, cache_read_input_tokens: 900, cache_creation_input_tokens: 60, output_tokens: 120 } },
    });
    expect(usage.status).toBe(201);

    const page = await openPage(viewUrl);
    expect(page.status).toBe(200);
    expect(page.html).not.toMatch(/\sstyle="/);

    for (const n of [0, 1]) {
      const html = turnHtml(page.html, n);
      const total = svgTotal(html);
      expect(total).toBe(await requestTokens(id, n));
      expect(segmentTokens(html).reduce((sum, tokens) => sum + tokens, 0)).toBe(total);
      expect(html).toContain('<line class="mark mark-prefix"');
    }

    const first = turnHtml(page.html, 0);
    const second = turnHtml(page.html, 1);
    // Turn 1 starts with turn 0's whole request: the line is drawn where that ends.
    expect(textOf(second)).toContain(`turn 0’s request, which this one starts with: ${svgTotal(first).toLocaleString('en-US')}`);
    expect(second).toContain('<line class="mark mark-earlier"');
    // Segments link to their sections; groups come in request order.
    expect(first).toMatch(/<a href="#t0-s\d+"><rect class="seg w-rules"/);
    expect(textOf(first)).toMatch(/system blocks and tools [\d,]+ \([\d.]+%\)commit-stable context [\d,]+ \([\d.]+%\)task-dependent context [\d,]+ \([\d.]+%\)the task [\d,]+/);
    expect(textOf(second)).toMatch(/the transcript so far [\d,]+ \([\d.]+%\)/);

    // The rules budget bit: the bar, the numbers and the cut file, linked to its section.
    const rules = /<li data-provider="rules">(?:(?!<li data-provider=).)*/s.exec(first)?.[0] ?? '';
    expect(textOf(rules)).toMatch(/rules\s*[\d,]+ of 60 tokens \([\d.]+%\) · included/);
    expect(rules).toMatch(/<a href="#t0-s\d+">AGENTS\.md: [^<]*truncated[^<]*<\/a>/);

    // What the cache did, beside Groundwork's estimate.
    expect(textOf(first)).toContain('Read from cache900 (90.0% of the input)');
    expect(textOf(first)).toContain('Written to cache60 tokens');
    expect(textOf(first)).toMatch(/Groundwork’s estimate[\d,]+ of [\d,]+ tokens could be read from the cache \(the prefix every task on this commit shares/);
    expect(textOf(second)).toContain('No usage reported for this turn.');

    // Memory is titled by the statement's opening words; the id is in the details.
    expect(textOf(first)).toContain('fact: Run the database migrations before the integration tests, or they…');
    expect(first).toMatch(new RegExp(`<dt>Title</dt><dd>fact ${knowledge.id}</dd>`));
    // A section's summary line names its source and blob.
    expect(textOf(first)).toMatch(/from rules · src\/AGENTS\.md@[0-9a-f]{12} · blob [0-9a-f]{12} · pinned/);

    // The follow-up and the reply reach the model in turn 1, not "turn 0".
    const timeline = page.html.slice(page.html.indexOf('id="timeline"'));
    expect(textOf(timeline)).toMatch(/local:mailbox:1 mailbox mailbox · user · reaches the model in turn 1 · from Ada/);
    expect(textOf(timeline)).toMatch(/reply-0 message message · assistant · reaches the model in turn 1/);
    expect(textOf(timeline)).toMatch(/local:task task message · user · reaches the model in turn 0/);
  });

  it('says a reply appended after the last turn began is for a turn not begun', async () => {
    const { id, viewUrl } = await readyTask({ repo: hostileRepo(), cwd: 'src' });
    await api('POST', `/tasks/${id}/transcript`, { body: { items: [{ type: 'message', id: 'late', role: 'assistant', content: 'Done.' }] } });
    const page = await openPage(viewUrl);
    expect(textOf(page.html.slice(page.html.indexOf('id="timeline"')))).toMatch(/late message message · assistant · for turn 1 \(not begun\)/);
  });
});

/**
 * The task page stays bounded whatever the transcript holds: a transcript filled to its cap with
 * hostile text (invisible characters that each render as a marker, markup that escapes to four
 * times its size) and hundreds of items gives a page of bounded size, one page of the timeline at
 * a time with links to the others, and says what it left out.
 */
import { describe, expect, it } from 'vitest';
import { TIMELINE_PAGE_ITEMS } from '../../src/inspector/timeline.ts';
import { MAX_ITEM_BYTES } from '../../src/tasks/transcript.ts';
import { api } from '../support/api.ts';
import { openPage, readyTask, textOf } from './support.ts';

/** What a page may weigh, however the transcript is filled. */
const MAX_PAGE_BYTES = 2 * 1024 * 1024;

const message = (id: string, content: string) => ({ id, type: 'message', role: 'assistant', content });

describe('a task page over a transcript at its cap', () => {
  it('stays bounded in size, pages the timeline and names what it left out', async () => {
    const { id, viewUrl } = await readyTask();
    // Close to 4 MB in all of text that renders large: each U+202E is a marker, each < is &lt;.
    const hostile = ['\u202e'.repeat(250_000), '<'.repeat(700_000), '\u2028\u0007'.repeat(80_000), '&"<>'.repeat(120_000)];
    for (const [i, content] of hostile.entries()) {
      expect(new TextEncoder().encode(content).byteLength).toBeLessThan(MAX_ITEM_BYTES);
      const res = await api('POST', `/tasks/${id}/transcript`, { body: { items: [message(`hostile-${i}`, content)] } });
      expect(res.status, JSON.stringify(res.json.error)).toBe(200);
    }
    // And many small items: more than two pages of the timeline.
    for (let batch = 0; batch < 2; batch++) {
      const items = Array.from({ length: 150 }, (_, i) => message(`small-${batch}-${i}`, `\u202e${'<b>'.repeat(600)}`));
      expect((await api('POST', `/tasks/${id}/transcript`, { body: { items } })).status).toBe(200);
    }
    for (let i = 0; i < 20; i++) expect((await api('POST', `/tasks/${id}/mailbox`, { body: { from: 'ada\u202e', text: '\u202e'.repeat(10_000) } })).status).toBe(201);

    const total = 1 + hostile.length + 300 + 20;
    const first = await openPage(viewUrl);
    expect(first.status).toBe(200);
    expect(first.html.length).toBeLessThan(MAX_PAGE_BYTES);
    console.log(`task page over a ${total}-item transcript at its cap: ${first.html.length} bytes`);
    const text = textOf(first.html);
    expect(text).toContain(`Items 1–${TIMELINE_PAGE_ITEMS} of ${total}`);
    expect(text).toMatch(/more characters not shown here; the turn API \(GET \/tasks\/:id\/turns\/:n\) has the whole item\./);
    expect((first.html.slice(first.html.indexOf('id="timeline"')).match(/<li>/g) ?? []).length).toBe(TIMELINE_PAGE_ITEMS);

    // The last page, through the link the page gives, with the signed link's own parameters.
    const last = /<a href="(\?exp=\d+&amp;sig=[0-9a-f]{64}&amp;from=(\d+)#timeline)">last<\/a>/.exec(first.html);
    expect(last?.[2]).toBe(String(Math.floor((total - 1) / TIMELINE_PAGE_ITEMS) * TIMELINE_PAGE_ITEMS));
    const lastPage = await openPage(`${viewUrl.split('?')[0]}${(last?.[1] ?? '').replace(/&amp;/g, '&')}`);
    expect(lastPage.status).toBe(200);
    expect(lastPage.html.length).toBeLessThan(MAX_PAGE_BYTES);
    expect(textOf(lastPage.html)).toContain(`local:mailbox:20`);
    expect(textOf(lastPage.html)).not.toContain('hostile-0');

    expect((await openPage(`${viewUrl}&from=-1`)).status).toBe(400);
    expect((await openPage(`${viewUrl}&from=99999999`)).status).toBe(400);
    // Past the end is the last page, not an empty one.
    expect(textOf((await openPage(`${viewUrl}&from=999999`)).html)).toContain('local:mailbox:20');
  });

  it('shows turn 0 and the latest turns in full and names the turns between', async () => {
    const { id, viewUrl } = await readyTask();
    for (let turn = 1; turn <= 24; turn++) expect((await api('POST', `/tasks/${id}/turns`, { body: { turn } })).status).toBe(200);
    const page = await openPage(viewUrl);
    const text = textOf(page.html);
    expect(page.html).toContain('id="turn-0"');
    expect(page.html).toContain('id="turn-24"');
    expect(page.html).not.toContain('id="turn-5"');
    expect(text).toContain('Turns 1–5 (5) are not shown on this page; GET /tasks/:id/turns/:n answers each');
  });
});

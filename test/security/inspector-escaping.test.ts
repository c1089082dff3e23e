import { describe, expect, inject, it } from 'vitest';
import { api } from '../support/api.ts';
import { HIDDEN_TEXT, HOSTILE_LINES, HOSTILE_SKILL_DESCRIPTION } from '../support/hostile-repo.ts';
import { openPage, readyTask, textOf } from '../inspector/support.ts';

const hostileRepo = () => `http://127.0.0.1:${inject('gitHttpPort')}/hostile.git`;
const head = () => inject('gitHttpFixtures').hostile.head;
const HOSTILE_REQUEST = 'Add sqrt </p></dd><script>alert("task")</script> $add-operation';
const HOSTILE_REPLY = '</pre></details></li></ol><script>alert("reply")</script>';

/** Markup a page of ours may contain; anything else that looks like a tag came from outside. */
const OUR_TAGS = /^<\/?(?:!doctype|html|head|meta|title|style|body|main|nav|section|h[1234]|p|dl|dt|dd|code|span|a|strong|div|table|caption|thead|tbody|tr|th|td|svg|rect|line|details|summary|pre|ul|ol|li|time|br|form|label|select|option|input|button)[\s>/]/i;

describe('the task page shows hostile repository and transcript text as text', () => {
  it('renders files that close cells, open scripts or forge section labels as inert text, with invisible characters marked', async () => {
    const { id, viewUrl } = await readyTask({ repo: hostileRepo(), cwd: 'src', request: HOSTILE_REQUEST });
    const appended = await api('POST', `/tasks/${id}/transcript`, {
      body: {
        items: [
          { type: 'message', id: 'reply-<b>1</b>', role: 'assistant', content: HOSTILE_REPLY },
          { type: 'tool_call', id: 'call-1', name: 'read_file', callId: 'toolu_1', arguments: { path: '"><script>alert(3)</script>' } },
          { type: 'tool_result', id: 'result-1', callId: 'toolu_1', content: '</code><img src=x onerror=alert(4)>' },
        ],
      },
    });
    expect(appended.status).toBe(200);

    const page = await openPage(viewUrl);
    expect(page.status).toBe(200);
    const tags = page.html.match(/<[^>]*>/g) ?? [];
    expect(tags.filter((tag) => !OUR_TAGS.test(tag))).toEqual([]);
    expect(page.html.match(/<style/g)).toHaveLength(1);
    expect(page.html).not.toMatch(/<script|<img/i);
    expect(tags.filter((tag) => /\son[a-z]+\s*=/i.test(tag))).toEqual([]);

    const text = textOf(page.html);
    for (const line of HOSTILE_LINES.slice(0, 3)) expect(text).toContain(line);
    expect(text).toContain(HOSTILE_SKILL_DESCRIPTION);
    expect(text).toContain('alert("task")');
    expect(text).toContain(HOSTILE_REPLY);
    expect(text).toContain('reply-<b>1</b>');
    expect(text).toContain('</code><img src=x onerror=alert(4)>');
    // The forged label stays inside the rules section: no section claims to come from "forged".
    expect(text).not.toMatch(/from forged/);
    expect(textOf(page.html)).toMatch(/from rules · AGENTS\.md@[0-9a-f]{12} · blob [0-9a-f]{12} · pinned/);
    // Invisible characters are shown, never passed through to reorder what a reviewer reads.
    expect(page.html).not.toContain('\u202E');
    expect(page.html).not.toContain('\u200B');
    expect(text).toContain('Run the testsU+202E.exeU+200B');
    expect(HIDDEN_TEXT).toContain('\u202E');

    // Each context section names its source at the pinned commit, in the order the model reads them.
    const sources = [...text.matchAll(/Source([^\s@]+)@([0-9a-f]{40})/g)].map((match) => [match[1], match[2]]);
    // The system provider's facts are about the repository as a whole, so their source is its URL.
    expect(sources).toEqual([hostileRepo(), 'AGENTS.md', 'src/AGENTS.md', '.agents/skills', '.agents/skills/add-operation/SKILL.md'].map((path) => [path, head()]));
  });
});

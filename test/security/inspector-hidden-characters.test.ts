/**
 * Every text the inspector shows goes through one visible-text rule: a character that hides or
 * reorders what a person reads (C0 and C1 controls, DEL, bidi overrides and isolates, zero-width
 * and other format characters, line separators, lone surrogates) is shown as a marker, in text,
 * in attributes and in SVG `<title>`s alike. Every view is rendered with every name hostile, and
 * a real task whose rule files and focus paths carry such names is opened through the Worker.
 */
import { jsx, type Child } from 'hono/jsx';
import { describe, expect, it } from 'vitest';
import type { TaskPageModel, TurnModel } from '../../src/inspector/task-page.ts';
import type { TaskListModel } from '../../src/inspector/task-list.ts';
import { ErrorPage } from '../../src/views/error-page.tsx';
import { TaskListPage } from '../../src/views/task-list-page.tsx';
import { TaskPage } from '../../src/views/task-page.tsx';
import { visibleParts, visibleText } from '../../src/views/visible-text.ts';
import { api } from '../support/api.ts';
import { createTestRemote } from '../support/git-remote.ts';
import { openPage, readyTask, textOf } from '../inspector/support.ts';

/** Each hidden character the page must never pass through, with the marker it shows instead. */
const HIDDEN: ReadonlyArray<readonly [string, string]> = [
  ['\u0000', '\u2400'],
  ['\u0007', '\u2407'],
  ['\u001b', '\u241b'],
  ['\r', '\u240d'],
  ['\u007f', '\u2421'],
  ['\u0085', 'U+0085'],
  ['\u009b', 'U+009B'],
  ['\u202a', 'U+202A'],
  ['\u202e', 'U+202E'],
  ['\u2066', 'U+2066'],
  ['\u2067', 'U+2067'],
  ['\u2069', 'U+2069'],
  ['\u200e', 'U+200E'],
  ['\u200f', 'U+200F'],
  ['\u061c', 'U+061C'],
  ['\u200b', 'U+200B'],
  ['\u2060', 'U+2060'],
  ['\u00ad', 'U+00AD'],
  ['\ufeff', 'U+FEFF'],
  ['\u2028', 'U+2028'],
  ['\u2029', 'U+2029'],
  ['\u{e0041}', 'U+E0041'],
  ['\ud800', 'U+D800'],
  ['\udfff', 'U+DFFF'],
];

/** A name carrying every hidden character, each between letters (so no two surrogates pair up). */
const H = `evil${HIDDEN.map(([char], i) => `${char}${String.fromCharCode(97 + (i % 26))}`).join('')}`;

/** A surrogate that is not half of a well-formed pair (our own text may hold emoji). */
function lone(char: string): RegExp | undefined {
  const code = char.charCodeAt(0);
  if (char.length !== 1 || code < 0xd800 || code > 0xdfff) return undefined;
  return code < 0xdc00 ? new RegExp(`${char}(?![\\udc00-\\udfff])`) : new RegExp(`(?<![\\ud800-\\udbff])${char}`);
}

/** The hidden characters `html` still holds, as markers. */
function leaked(html: string): string[] {
  return HIDDEN.filter(([char]) => lone(char)?.test(html) ?? html.includes(char)).map(([, marker]) => marker);
}

const render = async (component: (props: never) => Child, props: object): Promise<string> => String(await jsx(component, props).toString());

const SHA = 'a'.repeat(40);
const linked = (text: string) => ({ text, href: 'https://example.test/linked' });

function hostileTurn(turn: number): TurnModel {
  const anchor = `t${turn}-s0`;
  return {
    turn,
    digest: `sha256:${H}`,
    chars: 10,
    tokens: 3,
    agent: H,
    client: H,
    agentHash: `sha256:${H}`,
    commit: linked(H),
    createdAt: H,
    system: [H],
    tools: [H, H],
    hostItemId: H,
    anatomy: {
      ok: true,
      sections: [
        { kind: 'task', anchor, attributes: [[H, H]], body: { text: H, cut: 0 } },
        { kind: 'notice', anchor: `t${turn}-s1`, provider: H, body: { text: H, cut: 0 } },
        {
          kind: 'context',
          anchor: `t${turn}-s2`,
          provider: H,
          category: H,
          title: H,
          heading: H,
          source: { label: `${H}@${SHA}`, href: 'https://example.test/file', uri: H, blob: H },
          freshness: H,
          reviewBy: H,
          truncated: true,
          entry: { chars: 3, warnings: [H], stability: 'commit' },
          body: { text: H, cut: 5 },
        },
        { kind: 'other', anchor: `t${turn}-s3`, tag: H, attributes: [[H, H]], body: { text: H, cut: 0 } },
      ],
    },
    window: {
      segments: [
        { label: H, kind: 'rules', group: 'commit-context', tokens: 2, anchor },
        { label: H, kind: 'transcript', group: 'transcript', tokens: 1 },
      ],
      total: 3,
      sharedPrefix: 2,
      earlierRequest: turn > 0 ? 1 : undefined,
      legend: [
        { kind: 'rules', tokens: 2, share: 2 / 3 },
        { kind: 'transcript', tokens: 1, share: 1 / 3 },
      ],
    },
    budgets: [{ provider: H, category: H, outcome: H, tokens: 2, budget: 4, cuts: [{ text: H, anchor }, { text: H }] }],
    usage: { format: 'anthropic', model: H, inputTokens: 3, cachedTokens: 1, cacheWriteTokens: null, outputTokens: 1, usage: {}, receivedAt: H, share: 1 / 3 },
    outcomes: [{ name: H, category: 'rules', outcome: 'included', reason: H, chars: 3, tokens: 1, durationMs: 2, share: 1 }],
    ruleFiles: [{ path: H, format: H, verdict: 'not-applied', reason: H, provider: H, href: 'https://example.test/rule' }, { path: H, format: H, verdict: 'applied', reason: H, provider: H }],
    settings: {
      layers: [{ layer: 'repository', status: 'failed', source: H, reason: H }],
      providers: [{ name: H, enabled: true, budget: 4, config: { [H]: H }, set: { [H]: 'task' } }],
      warnings: [H],
    },
    github: H,
  };
}

const pageModel: TaskPageModel = {
  header: {
    id: `task-${H}`,
    origin: H,
    tenant: H,
    repository: linked(H),
    commit: linked(H),
    ref: H,
    cwd: H,
    pullRequest: { number: 7, link: linked(H), baseRef: H, head: linked(H), fromFork: true },
    agent: H,
    client: H,
    trusted: true,
    skills: [H, H],
    status: 'ready',
    reason: H,
    attempts: 1,
    createdAt: H,
    assembledAt: H,
    expiresAt: H,
    request: H,
    mailbox: { count: 2, lastItemId: H, lastAt: H },
  },
  turns: [hostileTurn(0), hostileTurn(1)],
  turnsNotShown: undefined,
  timeline: {
    entries: [
      { turn: 0, delivered: true, id: H, type: H, role: H, mark: null, detail: H, preview: { text: H, cut: 3 } },
      { turn: 1, delivered: false, id: H, type: H, role: H, mark: 'mailbox', detail: H, preview: { text: H, cut: 0 } },
    ],
    from: 0,
    total: 2,
    last: 0,
  },
  freshness: {
    status: 'checked',
    checkedAt: H,
    ref: H,
    from: linked(H),
    current: linked(H),
    moved: true,
    reason: H,
    pullRequest: { number: 7, head: H, state: H, reason: H },
    counts: { changed: 1, deleted: 0, unverifiable: 0, unchanged: 0 },
    rows: [{ status: 'changed', provider: H, title: H, source: linked(H), blob: H, currentBlob: H, notes: [H, H] }],
  },
  checks: { count: 1, dropped: 0, rows: [{ id: 1, verdict: 'stop', line: H, more: [H] }] },
};

const listModel: TaskListModel = {
  rows: [
    {
      taskId: 'f'.repeat(64),
      tenant: H,
      seq: 1,
      status: 'ready',
      reason: H,
      origin: 'api',
      repo: H,
      agent: H,
      request: H,
      commit: H,
      createdAt: 0,
      updatedAt: 0,
      expiresAt: 0,
      requestExcerpt: H,
      href: '/tasks/x/view',
    },
  ],
  filters: { repo: H, limit: 50 },
};

describe('the visible-text rule', () => {
  // Compared as JSON, which escapes a lone surrogate: a failure's diff sent raw would be invalid UTF-8.
  it.each(HIDDEN)('shows %j as the marker %s, in text and in attributes alike', (char, marker) => {
    const code = (char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0');
    expect(JSON.stringify(visibleParts(`a${char}b`))).toBe(JSON.stringify([{ text: 'a' }, { marker, title: `invisible character U+${code}` }, { text: 'b' }]));
    expect(JSON.stringify(visibleText(`a${char}b`))).toBe(JSON.stringify(`a${marker}b`));
  });

  it('keeps tab, line feed, joiners and well-formed surrogate pairs as they are', () => {
    const kept = 'a\tb\nc \u200d\u200c \u{1f469}\u200d\u{1f4bb} \u{10000}';
    expect(visibleParts(kept)).toEqual([{ text: kept }]);
    expect(visibleText(kept)).toBe(kept);
  });
});

describe('every inspector view shows hostile names through the rule', () => {
  it('renders the task page, the task list and the error page with no hidden character left', async () => {
    const links = { listHref: '/view', freshnessHref: '?freshness=1', timelineHref: (from: number) => `?from=${from}` };
    const pages = {
      task: await render(TaskPage, { model: pageModel, nonce: 'n', links }),
      list: await render(TaskListPage, { model: listModel, nonce: 'n', tenants: [H, 'acme'] }),
      error: await render(ErrorPage, { title: H, message: H, hint: H, nonce: 'n', requestId: H }),
    };
    for (const [name, html] of Object.entries(pages)) {
      // What is left raw, and which markers are missing, rather than the page: a failure's diff of
      // a page with a lone surrogate in it would be invalid UTF-8.
      expect(leaked(html), name).toEqual([]);
      expect(HIDDEN.filter(([, marker]) => !html.includes(marker)).map(([, marker]) => marker), name).toEqual([]);
    }
    // Attributes and SVG titles carry the same markers as the text.
    expect(pages.task).toMatch(/<title>evil\u2400a\u2407b\u241bc[^<]*U\+202Ei[^<]*U\+D800wU\+DFFFx · 2 tokens<\/title>/);
    expect(pages.task).toMatch(/data-provider="evil\u2400a/);
    expect(pages.list).toMatch(/<input name="repo" value="evil\u2400a/);
  });
});

describe('a task whose rule files and focus paths carry hidden characters', () => {
  it('shows them as markers in the rule files table, each path@commit and the context window picture', async () => {
    const names = ['evil\u202e/AGENTS.md', 'esc\u001b[31m/AGENTS.md', 'iso\u2067lation\u200b/AGENTS.md', 'c1\u009bx/AGENTS.md'];
    const remote = await createTestRemote({ 'AGENTS.md': 'Root rules.\n', ...Object.fromEntries(names.map((name) => [name, `Rules of ${name}\n`])) });
    const { id, viewUrl } = await readyTask({ repo: remote.url, paths: names.map((name) => name.replace('/AGENTS.md', '/file.ts')), request: 'Fix \u202eit\ud800.' });
    expect((await api('POST', `/tasks/${id}/mailbox`, { body: { from: 'ada\u2066', text: 'More \u001b[2J and \udfff.' } })).status).toBe(201);

    const page = await openPage(viewUrl);
    expect(page.status).toBe(200);
    expect(leaked(page.html)).toEqual([]);
    const text = textOf(page.html);
    const rules = page.html.slice(page.html.indexOf('id="rule-files-0"'), page.html.indexOf('</table>', page.html.indexOf('id="rule-files-0"')));
    for (const marked of ['evilU+202E/AGENTS.md', 'esc\u241b[31m/AGENTS.md', 'isoU+2067lationU+200B/AGENTS.md', 'c1U+009Bx/AGENTS.md']) {
      expect(textOf(rules)).toContain(marked);
      expect(text).toMatch(new RegExp(`${marked.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}@[0-9a-f]{40}`));
      expect(page.html).toMatch(new RegExp(`<title>rules: ${marked.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    }
    expect(text).toContain('Fix U+202EitU+D800.');
    expect(text).toContain('More \u241b[2J and U+DFFF.');

    const list = await openPage('/view', { tenant: 'acme' });
    expect(list.status).toBe(200);
    expect(leaked(list.html)).toEqual([]);
  });
});

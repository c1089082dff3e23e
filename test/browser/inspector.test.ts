/**
 * The inspector in a real browser: the Worker under `wrangler dev`, a task assembled from a real
 * git remote (a repository served by `git http-backend` whose files try to break out of the page)
 * with rules, skills, memory, a reply, a follow-up and a reported usage block, and the page
 * opened by its signed link in Chromium. Screenshots go to test-results/; with
 * GROUNDWORK_SCREENSHOTS=docs the ones the docs show replace docs/inspector*.png (a test run must
 * not dirty the working tree).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { countTokens } from '../../src/context/tokens.ts';
import { startWranglerDev, type WranglerDev } from '../../bench/wrangler-dev.ts';
import { serveRepository, type RepositoryServer } from '../../src/cli/run/repository-server.ts';
import { createGitRepo, type GitFixture } from '../support/git-fixtures.ts';
import { buildHostileRepo } from '../support/hostile-repo.ts';
import { launchChromium } from './chromium.ts';

const TOKEN = 'browser-test-token-0123456789';
const RESULTS = join(import.meta.dirname, '..', '..', 'test-results');
const DOCS = process.env.GROUNDWORK_SCREENSHOTS === 'docs' ? join(import.meta.dirname, '..', '..', 'docs') : RESULTS;
const MEMORY = 'Square roots of negative numbers throw a RangeError; the tests check the message.';
const TurnSchema = z.object({
  providers: z.array(z.object({ name: z.string(), outcome: z.string() })),
  entries: z.array(z.object({ provider: z.string(), freshness: z.string(), source: z.object({ uri: z.string(), path: z.string().optional(), revision: z.string().optional() }) })),
  tools: z.array(z.unknown()),
  messages: z.array(z.object({ content: z.string() })),
});

/** The request's tokens as the turn API has it, counted as the picture counts: tools, then each message. */
const requestTokens = (turn: z.infer<typeof TurnSchema>) => (turn.tools.length > 0 ? countTokens(JSON.stringify(turn.tools)) : 0) + turn.messages.reduce((sum, message) => sum + countTokens(message.content), 0);

let repo: GitFixture;
let head: string;
let served: RepositoryServer;
let worker: WranglerDev;
let browser: Browser;

async function call(method: string, path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${worker.origin}${path}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(30_000),
  });
  const json: unknown = await res.json();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

async function readyTask(): Promise<{ id: string; viewUrl: string }> {
  const created = z.object({ id: z.string(), viewUrl: z.string() }).parse(
    await call('POST', '/tasks', { repo: served.url, cwd: 'src', request: 'Add a square root operation. Use $add-operation.' }),
  );
  const deadline = Date.now() + 60_000;
  for (;;) {
    const { status, reason } = z.object({ status: z.string(), reason: z.string().nullable() }).parse(await call('GET', `/tasks/${created.id}`));
    if (status === 'ready') return created;
    if (status === 'failed' || Date.now() > deadline) throw new Error(`task ${created.id} is ${status}: ${reason ?? ''}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** A page that records console errors, uncaught errors, dialogs and CSP violations as they happen. */
async function watchedPage(width: number): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage({ viewport: { width, height: 900 } });
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(`console ${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('dialog', (dialog) => {
    problems.push(`dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
  // Runs through the DevTools protocol, so the page's CSP does not stop it from listening.
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI}`));
  });
  return { page, problems };
}

beforeAll(async () => {
  repo = createGitRepo();
  ({ head } = buildHostileRepo(repo));
  served = await serveRepository(join(repo.dir, '.git'));
  worker = await startWranglerDev({ API_TOKENS: `browser=${TOKEN}`, VIEW_LINK_SECRET: 'browser-test-view-link-secret', GIT_ALLOWED_HOSTS: '127.0.0.1' });
  browser = await launchChromium();
  mkdirSync(RESULTS, { recursive: true });
  // Knowledge of the repository, so tasks on it get a memory section.
  await call('POST', '/knowledge', { repo: served.url, kind: 'fact', statement: MEMORY, source: { uri: 'https://wiki.example.test/calculator' } });
}, 120_000);

/** Every `<details>` on the page opened, as a reader who opens them all would. */
async function openEverything(page: Page): Promise<void> {
  await page.evaluate(() => {
    document.querySelectorAll('details').forEach((details) => (details.open = true));
  });
}

afterAll(async () => {
  await browser?.close();
  await worker?.stop();
  await served?.close();
  repo?.remove();
});

describe('the task page in Chromium', () => {
  it('loads without console errors or CSP violations, shows every provider and source, and opens its sections', async () => {
    const { id, viewUrl } = await readyTask();
    await call('POST', `/tasks/${id}/transcript`, {
      items: [
        { type: 'message', id: 'a1', role: 'assistant', content: 'I will read the calculator first.' },
        { type: 'tool_call', id: 'a1-call', name: 'read_file', callId: 'toolu_1', arguments: { path: 'src/calculator.ts' } },
        { type: 'tool_result', id: 'a1-result', callId: 'toolu_1', content: 'export const add = (a: number, b: number): number => a + b;' },
      ],
    });
    await call('POST', `/tasks/${id}/mailbox`, { from: 'Ada', text: 'Also handle negative numbers.' });
    await call('POST', `/tasks/${id}/turns`, { turn: 1 });
    await call('POST', `/tasks/${id}/turns/0/usage`, {
      format: 'anthropic',
      model: 'claude-sonnet-4-5-20250929',
      usage: { input_tokens: 212, cache_read_input_tokens: 1_536, cache_creation_input_tokens: 402, output_tokens: 180 },
    });
    const turn = TurnSchema.parse(await call('GET', `/tasks/${id}/turns/0`));
    const later = TurnSchema.parse(await call('GET', `/tasks/${id}/turns/1`));
    expect(turn.entries.some((entry) => entry.provider === 'memory')).toBe(true);

    const { page, problems } = await watchedPage(1280);
    const response = await page.goto(viewUrl);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toMatch(/default-src 'none'/);

    // Every provider of turn 0, with the outcome the API reports.
    const rows = page.locator('#turn-0 tr[data-provider]');
    expect(await rows.count()).toBe(turn.providers.length);
    for (const provider of turn.providers) {
      await expect.poll(() => page.locator(`#turn-0 tr[data-provider="${provider.name}"] .badge`).textContent()).toBe(provider.outcome);
    }

    // The picture: its segments add up to the request the turn API serves, on every turn.
    for (const [n, of] of [[0, turn], [1, later]] as const) {
      const picture = page.locator(`#turn-${n} svg.window`);
      const total = Number(await picture.getAttribute('data-total'));
      expect(total).toBe(requestTokens(of));
      const segments = await picture.locator('rect.seg').evaluateAll((rects) => rects.map((rect) => Number(rect.getAttribute('data-tokens'))));
      expect(segments.reduce((sum, tokens) => sum + tokens, 0)).toBe(total);
      expect(await picture.locator('line.mark-prefix').count()).toBe(1);
    }
    expect(await page.locator('#turn-1 svg.window line.mark-earlier').count()).toBe(1);
    // Its segments lead to their sections, and what the cache read is on the page.
    const rulesSegment = page.locator('#turn-0 svg.window a:has(rect.w-rules)').first();
    const target = (await rulesSegment.getAttribute('href')) ?? '';
    expect(await page.locator(`${target}.section`).count()).toBe(1);
    expect(await page.locator('#turn-0 dl.usage').textContent()).toContain('1,536 (71.4% of the input)');
    // The follow-up is labelled by the turn that delivers it.
    expect(await page.locator('ol.timeline li', { hasText: 'local:mailbox:1' }).textContent()).toContain('reaches the model in turn 1');

    // Every context section names and links its source: a pinned one as path@<40-hex> at the
    // task's commit; a volatile fact (read from the host, not the tree) and a memory by its URI.
    const sources = await page.locator('#turn-0 details.section dd a code').allTextContents();
    expect(sources).toHaveLength(turn.entries.filter((entry) => entry.provider !== 'memory').length);
    const pinned = turn.entries.filter((entry) => entry.freshness === 'pinned');
    expect(pinned.length).toBeGreaterThanOrEqual(5);
    for (const entry of pinned) expect(entry.source.revision).toBe(head);
    const atCommit = sources.filter((source) => new RegExp(`^[^@\\s]+@${head}$`).test(source));
    expect(atCommit).toHaveLength(pinned.length);
    expect(atCommit).toEqual(expect.arrayContaining([`AGENTS.md@${head}`, `src/AGENTS.md@${head}`, `.agents/skills/add-operation/SKILL.md@${head}`]));
    for (const source of sources.filter((text) => !atCommit.includes(text))) expect(source).toBe(served.url);

    // Bodies are collapsed until opened, and open on a click.
    const rules = page.locator('#turn-0 details.section', { hasText: 'src/AGENTS.md' }).first();
    expect(await rules.evaluate((element) => (element as HTMLDetailsElement).open)).toBe(false);
    await rules.locator('summary').click();
    expect(await rules.evaluate((element) => (element as HTMLDetailsElement).open)).toBe(true);
    await expect.poll(() => rules.locator('pre.body').isVisible()).toBe(true);
    const root = page.locator('#turn-0 details.section', { hasText: 'AGENTS.md@' }).first();
    await root.locator('summary').click();
    // The hostile rules file is text on the page.
    expect(await root.locator('pre.body').textContent()).toContain('</td><script>alert("rules")</script>');
    expect(await page.locator('script').count()).toBe(0);

    await page.screenshot({ path: join(DOCS, 'inspector.png'), fullPage: true });
    await page.locator('#turn-0 section[aria-labelledby="window-0"]').screenshot({ path: join(DOCS, 'inspector-window.png') });
    expect(problems).toEqual([]);
  });

  it('is readable at 375 px with every section open: nothing wider than the screen but the tables that scroll in their own box', async () => {
    const { id, viewUrl } = await readyTask();
    await call('POST', `/tasks/${id}/mailbox`, { from: 'Ada', text: `A long follow-up: ${'x'.repeat(300)}` });
    await call('POST', `/tasks/${id}/turns`, { turn: 1 });
    const { page, problems } = await watchedPage(375);
    await page.goto(viewUrl);
    await openEverything(page);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBe(0);
    // The picture fits the screen too.
    const box = await page.locator('#turn-0 svg.window').boundingBox();
    expect(box?.width ?? 0).toBeLessThanOrEqual(375);
    await page.screenshot({ path: join(DOCS, 'inspector-375.png'), fullPage: true });
    expect(problems).toEqual([]);
  });

  it('answers a tampered link with the 403 page, and lists tasks behind a signed list link', async () => {
    const { viewUrl } = await readyTask();
    const { page, problems } = await watchedPage(1280);
    const refused = await page.goto(viewUrl.replace(/exp=(\d)/, (_, digit: string) => `exp=${(Number(digit) + 1) % 10}`));
    expect(refused?.status()).toBe(403);
    expect(await page.locator('h1').textContent()).toBe('This link is not valid');
    expect(await page.locator('#task-title').count()).toBe(0);

    const { viewUrl: listUrl } = z.object({ viewUrl: z.string() }).parse(await call('GET', '/tasks'));
    const list = await page.goto(listUrl);
    expect(list?.status()).toBe(200);
    expect(await page.locator('tbody tr').count()).toBeGreaterThanOrEqual(1);
    await page.selectOption('select[name="status"]', 'ready');
    await page.click('button[type="submit"]');
    // The filter form keeps the list link, so the filtered page opens without a token too.
    await page.waitForURL(/status=ready.*sig=/);
    expect(await page.locator('tbody tr').count()).toBeGreaterThanOrEqual(1);
    await page.screenshot({ path: join(RESULTS, 'inspector-list.png'), fullPage: true });
    // Chromium logs every 4xx document; the refused link is the only one.
    expect(problems).toEqual(['console error: Failed to load resource: the server responded with a status of 403 (Forbidden)']);
  });

  // Last: it commits to the shared repository.
  it('reads back what changed only when asked, by the link on the page', async () => {
    const { viewUrl } = await readyTask();
    repo.write('AGENTS.md', '# Rules\n\nRules changed after the task was pinned.\n');
    const moved = repo.commitAll('Change the rules');
    const { page, problems } = await watchedPage(1280);
    await page.goto(viewUrl);
    expect(await page.locator('tr[data-status]').count()).toBe(0);
    await page.getByRole('link', { name: 'Check what changed since the pinned commit' }).click();
    await page.waitForURL(/freshness=1/);
    expect(await page.locator('#task-title').count()).toBe(1);
    const changed = page.locator('tr[data-status="changed"]');
    expect(await changed.count()).toBe(1);
    expect(await changed.locator('td').nth(2).textContent()).toBe('AGENTS.md');
    expect(await page.locator('tr[data-status="unchanged"]').count()).toBeGreaterThanOrEqual(1);
    expect(await page.locator('section[aria-labelledby="freshness"]').textContent()).toContain(moved);
    await page.screenshot({ path: join(DOCS, 'inspector-freshness.png'), fullPage: true });
    expect(problems).toEqual([]);
  });
});

import { mkdtempSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { brokenLinks, headingAnchors, relativeLinks } from './markdown-links.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const PAGES = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];

describe('the README and docs/', () => {
  it('have reference pages to link to', () => {
    expect(PAGES).toEqual(expect.arrayContaining(['README.md', 'docs/cli.md', 'docs/http-api.md', 'docs/configuration.md']));
  });

  it('link only to files and headings that exist', () => {
    expect(brokenLinks(ROOT, PAGES)).toEqual([]);
  });
});

describe('the link check', () => {
  const dir = mkdtempSync(join(tmpdir(), 'groundwork-links-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('names a missing page, a missing heading and an anchor on a file that is not a page', () => {
    mkdirSync(join(dir, 'docs'));
    writeFileSync(join(dir, 'docs', 'a.md'), '# A page\n\n## The CLI: `npx groundwork`\n\n![shot](shot.png)\n');
    writeFileSync(join(dir, 'docs', 'shot.png'), '');
    writeFileSync(
      join(dir, 'README.md'),
      [
        '# Top',
        'See [a](docs/a.md#the-cli-npx-groundwork), [top](#top), [gone](docs/b.md), [no heading](docs/a.md#nope),',
        '[image anchor](docs/shot.png#x), [web](https://example.com/#x) and `[code](#not-a-link)`.',
        '```',
        '[fenced](#not-a-link-either)',
        '```',
      ].join('\n'),
    );
    expect(brokenLinks(dir, ['README.md', 'docs/a.md'])).toEqual([
      { file: 'README.md', line: 2, target: 'docs/b.md', why: 'docs/b.md does not exist' },
      { file: 'README.md', line: 2, target: 'docs/a.md#nope', why: 'docs/a.md has no heading #nope' },
      { file: 'README.md', line: 3, target: 'docs/shot.png#x', why: 'docs/shot.png is not a Markdown page, so #x names nothing' },
    ]);
  });

  it('numbers repeated headings and drops punctuation as GitHub does', () => {
    expect([...headingAnchors('# Tests\n## Tests\n### The freshness provider (`src/providers/freshness/`, category `system`)\n')]).toEqual([
      'tests',
      'tests-1',
      'the-freshness-provider-srcprovidersfreshness-category-system',
    ]);
  });

  it('finds links and images, not URLs with a scheme', () => {
    expect(relativeLinks('[a](x.md) ![b](y.png "title") [c](mailto:a@b.c) [`d`](#e)')).toEqual([
      { line: 1, target: 'x.md' },
      { line: 1, target: 'y.png' },
      { line: 1, target: '#e' },
    ]);
  });
});

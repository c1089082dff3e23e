/**
 * @module markdown-links
 * The relative links and heading anchors of Markdown pages, found as GitHub renders them (fenced
 * code and inline code hold no links; anchors are github-slugger's, duplicates numbered), so a
 * test can say which link of which page points nowhere.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import GithubSlugger from 'github-slugger';

export type Link = { line: number; target: string };
export type BrokenLink = Link & { file: string; why: string };

/** Each line of `markdown` outside fenced code blocks, with its 1-based number. */
function proseLines(markdown: string): { line: number; text: string }[] {
  const out: { line: number; text: string }[] = [];
  let fence: string | null = null;
  markdown.split('\n').forEach((text, i) => {
    const opener = /^\s{0,3}(`{3,}|~{3,})/.exec(text);
    if (opener) {
      const mark = opener[1] ?? '';
      if (fence === null) fence = mark;
      else if (mark.startsWith(fence[0] ?? '') && mark.length >= fence.length) fence = null;
      return;
    }
    if (fence === null) out.push({ line: i + 1, text });
  });
  return out;
}

/** The anchors GitHub gives the headings of `markdown` (`## Foo (bar)` is `#foo-bar`). */
export function headingAnchors(markdown: string): Set<string> {
  const slugger = new GithubSlugger();
  const anchors = new Set<string>();
  for (const { text } of proseLines(markdown)) {
    const heading = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(text);
    if (heading) anchors.add(slugger.slug((heading[1] ?? '').replace(/`/g, '')));
  }
  return anchors;
}

/** Links and images whose target is not a URL with a scheme: what must resolve in the tree. */
export function relativeLinks(markdown: string): Link[] {
  const links: Link[] = [];
  for (const { line, text } of proseLines(markdown)) {
    // Inline code shows brackets as text; a link's text may hold code, which leaves `[](`.
    const prose = text.replace(/`[^`]*`/g, '');
    for (const match of prose.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      const target = match[1] ?? '';
      if (!/^[a-z][a-z0-9+.-]*:/i.test(target)) links.push({ line, target });
    }
  }
  return links;
}

/** Every relative link of `files` (paths under `root`) that names a missing file or anchor. */
export function brokenLinks(root: string, files: readonly string[]): BrokenLink[] {
  const anchorsOf = new Map<string, Set<string>>();
  const anchors = (path: string): Set<string> => {
    let known = anchorsOf.get(path);
    if (!known) anchorsOf.set(path, (known = headingAnchors(readFileSync(path, 'utf8'))));
    return known;
  };
  const broken: BrokenLink[] = [];
  for (const file of files) {
    const from = join(root, file);
    for (const link of relativeLinks(readFileSync(from, 'utf8'))) {
      const [pathPart = '', anchor] = link.target.split('#', 2);
      const target = pathPart === '' ? from : join(dirname(from), decodeURIComponent(pathPart));
      const where = relative(root, target);
      const report = (why: string) => broken.push({ file, ...link, why });
      if (!existsSync(target)) report(`${where} does not exist`);
      else if (anchor !== undefined) {
        if (!statSync(target).isFile() || !target.endsWith('.md')) report(`${where} is not a Markdown page, so #${anchor} names nothing`);
        else if (!anchors(target).has(decodeURIComponent(anchor))) report(`${where} has no heading #${anchor}`);
      }
    }
  }
  return broken;
}

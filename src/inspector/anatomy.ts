/**
 * @module inspector/anatomy
 * The prompt anatomy of one turn: its host-rendered message split back into sections, each
 * context section joined with the entry the turn recorded for it (chars, truncation, warnings,
 * stability, blob), and a link to its source at the pinned commit.
 */
import { parseSections, type ParsedSection } from '../context/section-parse.ts';
import { hiddenChars, isHidden } from '../lib/hidden-chars.ts';
import type { EntrySummary } from '../context/turn-schema.ts';
import type { RepositoryLinks } from './links.ts';
import { sectionAnchor } from './window.ts';

/** Longer section texts are cut for the page (the API serves them whole). */
export const MAX_SECTION_CHARS = 200_000;
/**
 * What a hidden character costs against a bound, in characters: the page shows it as a marker of
 * some 60 bytes of markup, so text made of them is cut sooner and a page stays bounded in bytes.
 */
export const MARKER_WEIGHT = 32;

export interface SectionText {
  text: string;
  /** Characters left out of `text`. */
  cut: number;
}

export interface SourceModel {
  /** `path@<40-hex>`, or the URI when the entry has no path. */
  label: string;
  href?: string | undefined;
  uri: string;
  blob?: string | undefined;
}

export type SectionModel =
  | { kind: 'task'; anchor: string; attributes: ReadonlyArray<readonly [string, string]>; body: SectionText }
  | { kind: 'notice'; anchor: string; provider: string; body: SectionText }
  | {
      kind: 'context';
      anchor: string;
      provider: string;
      category: string;
      title: string;
      /** What the summary line calls it, when that is not the title (memory: the statement's opening words). */
      heading?: string | undefined;
      source: SourceModel;
      freshness: string;
      reviewBy?: string | undefined;
      truncated: boolean;
      /** From the turn's entry record; absent when no record matches the section. */
      entry?: Pick<EntrySummary, 'chars' | 'warnings' | 'stability'> | undefined;
      body: SectionText;
    }
  | { kind: 'other'; anchor: string; tag: string; attributes: ReadonlyArray<readonly [string, string]>; body: SectionText };

export type Anatomy = { ok: true; sections: SectionModel[] } | { ok: false; text: SectionText };

/**
 * As much of `text` as `max` characters' worth of page, a hidden character counting as
 * `MARKER_WEIGHT`; never ending inside a surrogate pair. `cut` counts the characters left out.
 */
export function bounded(text: string, max = MAX_SECTION_CHARS): SectionText {
  if (text.length <= max / MARKER_WEIGHT || (text.length <= max && !hasMarkers(text))) return { text, cut: 0 };
  let weight = 0;
  let end = 0;
  for (const char of text) {
    weight += isHidden(char) ? MARKER_WEIGHT : 1;
    if (weight > max) break;
    end += char.length;
  }
  return { text: text.slice(0, end), cut: text.length - end };
}

function hasMarkers(text: string): boolean {
  for (const match of text.matchAll(hiddenChars())) if (match[0] !== '\n' && match[0] !== '\t') return true;
  return false;
}

const attribute = (section: ParsedSection, name: string): string | undefined => section.attributes.find(([key]) => key === name)?.[1];

/** What an entry's label says, as escapeAttribute left it (line breaks and tabs as spaces). */
const asLabel = (text: string): string => text.replace(/[\r\n\t]/g, ' ');

function entryLabel(entry: EntrySummary): string {
  const { path, revision, uri } = entry.source;
  return asLabel(path ? `${path}@${revision ?? 'unpinned'}` : uri);
}

/** Words of a memory statement its summary line shows, at most. */
const HEADING_WORDS = 10;

/**
 * Splits `content` (turn `turn`'s host item) and joins each context section with the first
 * unused entry of the same provider, title and source.
 */
export function turnAnatomy(content: string, entries: readonly EntrySummary[], links: RepositoryLinks, turn: number): Anatomy {
  const parsed = parseSections(content);
  if (!parsed) return { ok: false, text: bounded(content) };
  const unused = [...entries];
  return {
    ok: true,
    sections: parsed.map((section, index): SectionModel => {
      const body = bounded(section.text);
      const anchor = sectionAnchor(turn, index);
      switch (section.tag) {
        case 'groundwork-task':
          return { kind: 'task', anchor, attributes: section.attributes, body };
        case 'groundwork-notice':
          return { kind: 'notice', anchor, provider: attribute(section, 'provider') ?? '', body };
        case 'groundwork-context': {
          const provider = attribute(section, 'provider') ?? '';
          const title = attribute(section, 'title') ?? '';
          const label = attribute(section, 'source') ?? '';
          const at = unused.findIndex((entry) => entry.provider === provider && asLabel(entry.title) === title && entryLabel(entry) === label);
          const entry = at >= 0 ? unused.splice(at, 1)[0] : undefined;
          const category = attribute(section, 'category') ?? '';
          return {
            kind: 'context',
            anchor,
            provider,
            category,
            title,
            heading: category === 'memory' ? memoryHeading(title, section.text) : undefined,
            source: sourceModel(label, attribute(section, 'uri'), entry, links),
            freshness: attribute(section, 'freshness') ?? '',
            reviewBy: attribute(section, 'review-by'),
            truncated: attribute(section, 'truncated') === 'true',
            entry: entry ? { chars: entry.chars, warnings: entry.warnings, stability: entry.stability } : undefined,
            body,
          };
        }
        default:
          return { kind: 'other', anchor, tag: section.tag, attributes: section.attributes, body };
      }
    }),
  };
}

/**
 * `convention: Run the migrations before the…`: a knowledge entry's kind (its title's first
 * word) and the opening words of its statement, which follows the host's lines after a blank
 * line; the title (`kind id`) when there is no statement to quote.
 */
function memoryHeading(title: string, text: string): string {
  const statement = text.slice(text.indexOf('\n\n') + 2).trim();
  if (text.indexOf('\n\n') < 0 || statement === '') return title;
  const words = statement.split(/\s+/);
  const opening = words.slice(0, HEADING_WORDS).join(' ');
  return `${title.split(' ', 1)[0] ?? ''}: ${words.length > HEADING_WORDS ? `${opening}…` : opening}`;
}

function sourceModel(label: string, uri: string | undefined, entry: EntrySummary | undefined, links: RepositoryLinks): SourceModel {
  const source = entry?.source;
  const href = source?.revision ? links.file(source.path ?? '', source.revision) : undefined;
  return { label, href, uri: source?.uri ?? uri ?? label, blob: source?.blob };
}

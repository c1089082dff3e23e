/**
 * YAML 1.2 whatever the text says holds only if every reader goes through `lib/yaml-1.2`: a module
 * that called the `yaml` package's parsers itself would follow a `%YAML 1.1` directive again.
 * This reads the sources, so a reader added later (another instruction format's frontmatter)
 * fails here rather than in a repository.
 */
import { describe, expect, it } from 'vitest';
import { projectSources } from './source-files.ts';

const THE_READER = 'src/lib/yaml-1.2.ts';
/** What parses text in the `yaml` package; node types and visitors are fine to import. */
const PARSERS = new Set(['parse', 'parseDocument', 'parseAllDocuments', 'Parser', 'Composer', 'Lexer', 'Document', 'default']);

/** Names a file imports from `yaml` (`*` for a namespace or default import). */
function yamlImports(text: string): string[] {
  const names: string[] = [];
  for (const match of text.matchAll(/import\s+(type\s+)?([^;]*?)\s+from\s+['"]yaml['"]/g)) {
    if (match[1]) continue;
    const clause = match[2] ?? '';
    if (!clause.startsWith('{')) names.push('*');
    for (const part of /\{([^}]*)\}/.exec(clause)?.[1]?.split(',') ?? []) {
      const name = part.trim().replace(/^type\s+/, '');
      if (name !== '' && !part.trim().startsWith('type ')) names.push(name.split(/\s+as\s+/)[0] ?? name);
    }
  }
  if (/import\(\s*['"]yaml['"]\s*\)|require\(\s*['"]yaml['"]\s*\)/.test(text)) names.push('*');
  return names;
}

describe('YAML readers', () => {
  it('parse YAML only through lib/yaml-1.2, which reads 1.2 whatever a directive says', () => {
    const sources = projectSources();
    const offenders = sources
      .filter(({ file }) => file !== THE_READER)
      .flatMap(({ file, text }) => yamlImports(text).filter((name) => name === '*' || PARSERS.has(name)).map((name) => `${file}: ${name}`));
    expect(offenders).toEqual([]);
    expect(yamlImports(sources.find(({ file }) => file === THE_READER)?.text ?? '')).toContain('parseDocument');
  });
});

/**
 * YAML 1.2 whatever the text says holds only if every reader goes through `lib/yaml-1.2`: a module
 * that called the `yaml` package's parsers itself would follow a `%YAML 1.1` directive again.
 * This reads the sources, so a reader added later (another instruction format's frontmatter)
 * fails here rather than in a repository.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const THE_READER = 'src/lib/yaml-1.2.ts';
/** What parses text in the `yaml` package; node types and visitors are fine to import. */
const PARSERS = new Set(['parse', 'parseDocument', 'parseAllDocuments', 'Parser', 'Composer', 'Lexer', 'Document', 'default']);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.tsx?$/.test(entry.name) ? [relative(ROOT, path)] : [];
  });
}

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
    const offenders = [...sources(join(ROOT, 'src')), ...sources(join(ROOT, 'durable-objects'))]
      .filter((file) => file !== THE_READER)
      .flatMap((file) => yamlImports(readFileSync(join(ROOT, file), 'utf8')).filter((name) => name === '*' || PARSERS.has(name)).map((name) => `${file}: ${name}`));
    expect(offenders).toEqual([]);
    expect(yamlImports(readFileSync(join(ROOT, THE_READER), 'utf8'))).toContain('parseDocument');
  });
});

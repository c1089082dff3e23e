/**
 * YAML 1.2 whatever the text says holds only if every reader goes through `lib/yaml-1.2`: a module
 * that called js-yaml itself could read another schema, follow no alias bound and name no construct.
 * This reads the sources, so a reader added later (another instruction format's frontmatter)
 * fails here rather than in a repository.
 */
import { describe, expect, it } from 'vitest';
import { projectSources } from './source-files.ts';

const THE_READER = 'src/lib/yaml-1.2.ts';
/** Names a file imports from js-yaml (`*` for a namespace or default import); type imports are fine. */
function yamlImports(text: string): string[] {
  const names: string[] = [];
  for (const match of text.matchAll(/import\s+(type\s+)?([^;]*?)\s+from\s+['"](?:js-)?yaml['"]/g)) {
    if (match[1]) continue;
    const clause = match[2] ?? '';
    if (!clause.startsWith('{')) names.push('*');
    for (const part of /\{([^}]*)\}/.exec(clause)?.[1]?.split(',') ?? []) {
      const name = part.trim().replace(/^type\s+/, '');
      if (name !== '' && !part.trim().startsWith('type ')) names.push(name.split(/\s+as\s+/)[0] ?? name);
    }
  }
  if (/import\(\s*['"](?:js-)?yaml['"]\s*\)|require\(\s*['"](?:js-)?yaml['"]\s*\)/.test(text)) names.push('*');
  return names;
}

describe('YAML readers', () => {
  it('parse YAML only through lib/yaml-1.2, which reads 1.2 whatever a directive says', () => {
    const sources = projectSources();
    const offenders = sources
      .filter(({ file }) => file !== THE_READER)
      .flatMap(({ file, text }) => yamlImports(text).map((name) => `${file}: ${name}`));
    expect(offenders).toEqual([]);
    expect(yamlImports(sources.find(({ file }) => file === THE_READER)?.text ?? '')).toContain('parseEvents');
  });
});

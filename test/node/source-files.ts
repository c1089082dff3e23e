/**
 * The project's own TypeScript sources, for tests that hold a rule over all of them (one reader of
 * YAML, one writer of transcripts), so code added later cannot step around the rule.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Every `.ts`/`.tsx` file under `src/` and `durable-objects/`, as `{ file, text }` with a root-relative path. */
export function projectSources(): Array<{ file: string; text: string }> {
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return walk(path);
      return /\.tsx?$/.test(entry.name) ? [path] : [];
    });
  return [...walk(join(ROOT, 'src')), ...walk(join(ROOT, 'durable-objects'))].map((path) => ({ file: relative(ROOT, path), text: readFileSync(path, 'utf8') }));
}

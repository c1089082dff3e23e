// Profiles are data and small pure functions that run in the Worker, the Task object and the CLI:
// they import nothing but context/ types and each other (ARCHITECTURE.md, "clients/").
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectSources } from './source-files.ts';

describe('client profiles', () => {
  it('import nothing but src/context/ and src/clients/', () => {
    const files = projectSources().filter(({ file }) => file.startsWith('src/clients/'));
    expect(files.length).toBeGreaterThanOrEqual(8);
    const outside = files.flatMap(({ file, text }) =>
      [...text.matchAll(/^(?:import|export)[^'"]*from ['"]([^'"]+)['"]/gm)]
        .map((match) => match[1] ?? '')
        .filter((target) => {
          const resolved = normalize(join(dirname(file), target)).split('\\').join('/');
          return !resolved.startsWith('src/clients/') && !resolved.startsWith('src/context/');
        })
        .map((target) => `${file} imports ${target}`),
    );
    expect(outside).toEqual([]);
  });
});

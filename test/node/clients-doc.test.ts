// docs/clients.md copies every client fact, with its source and the version checked: a fact added,
// changed or removed in src/clients/facts/ without the page fails here.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FACTS } from '../../src/clients/facts/index.ts';
import { CLIENT_NAMES } from '../../src/context/client.ts';
import { ROOT } from './source-files.ts';

const esc = (text: string) => text.replace(/\|/g, '\\|');

describe('docs/clients.md', () => {
  it('lists every fact of every client as the profiles state it', () => {
    const page = readFileSync(join(ROOT, 'docs', 'clients.md'), 'utf8');
    const missing = CLIENT_NAMES.filter((name) => name !== 'none')
      .flatMap((name) => FACTS[name])
      .filter((fact) => !page.includes(`| \`${fact.id}\` | ${esc(fact.says)}${fact.since ? ` (since ${fact.since})` : ''} | ${esc(fact.source)} | ${esc(fact.checked)} | ${fact.confidence} |`))
      .map((fact) => fact.id);
    expect(missing).toEqual([]);
    const listed = [...page.matchAll(/^\| `([a-z-]+\.[a-z.-]+)` \|/gm)].map((match) => match[1]);
    expect(listed.sort()).toEqual(CLIENT_NAMES.filter((name) => name !== 'none').flatMap((name) => FACTS[name].map((fact) => fact.id)).sort());
  });
});

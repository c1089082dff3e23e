/**
 * `npm run bench`: prints one line per measurement. Speed goals live here, never in unit tests.
 */
import { benchAssembly, benchRender } from './context.ts';
import { benchDeliveries } from './deliveries.ts';
import { benchMemory } from './memory.ts';
import { benchPrefixSharing } from './prefix-sharing.ts';
import { benchAppTokens } from './app-tokens.ts';
import { benchGraphQLReads } from './graphql-reads.ts';
import { benchGitHubRoundTrips, benchLocalGitSource } from './sources.ts';
import { benchStartup } from './startup.ts';

const sections: Array<[string, () => Promise<string[]>]> = [
  ['context', async () => [...(await benchAssembly()), ...(await benchRender())]],
  ['prefix', benchPrefixSharing],
  ['sources', async () => [...(await benchGitHubRoundTrips()), ...(await benchGraphQLReads()), ...(await benchAppTokens()), ...(await benchLocalGitSource())]],
  ['triggers', benchDeliveries],
  ['memory', benchMemory],
  ['startup', benchStartup],
];

for (const [name, run] of sections) {
  for (const line of await run()) console.log(`${name}: ${line}`);
}

/**
 * `npm run bench`: prints one line per measurement, after the date it was measured on (the
 * README's Benchmarks section and docs/benchmarks.md quote them dated). Speed goals live here,
 * never in unit tests. `npm run bench -- prefix freshness` runs only the sections named.
 */
import { benchAgentWaits } from './agent-waits.ts';
import { benchChecks } from './checks.ts';
import { benchAssembly, benchRender } from './context.ts';
import { benchDeliveries } from './deliveries.ts';
import { benchFirstTurn } from './first-turn.ts';
import { benchFocusReads } from './focus-reads.ts';
import { benchReadAheadQuery } from './read-ahead-query.ts';
import { benchFreshness } from './freshness.ts';
import { benchMemory } from './memory.ts';
import { benchPrefixSharing } from './prefix-sharing.ts';
import { benchAppTokens } from './app-tokens.ts';
import { benchGraphQLReads } from './graphql-reads.ts';
import { benchGitHubRoundTrips, benchLocalGitSource } from './sources.ts';
import { benchStartup } from './startup.ts';
import { benchStartupSchemas } from './startup-schemas.ts';
import { benchWorkerStartup } from './worker-startup.ts';
import { benchFirstRequests } from './first-requests.ts';
import { benchUploadReach } from './upload-reach.ts';
import { benchTranscriptAppend } from './transcript-append.ts';

const sections: Array<[string, () => Promise<string[]>]> = [
  ['context', async () => [...(await benchAssembly()), ...(await benchRender())]],
  ['prefix', benchPrefixSharing],
  ['sources', async () => [...(await benchGitHubRoundTrips()), ...(await benchGraphQLReads()), ...(await benchAppTokens()), ...(await benchLocalGitSource())]],
  ['focus', async () => [...(await benchFocusReads()), ...benchReadAheadQuery()]],
  ['freshness', benchFreshness],
  ['checks', benchChecks],
  ['triggers', benchDeliveries],
  ['memory', benchMemory],
  // Where agents and reviewers wait (issue 56): the CLI and its hook against node -e 0, the local
  // MCP server against the CLI, and a pull request's first turn with its request timeline.
  ['waits', async () => [...(await benchAgentWaits()), ...(await benchFirstTurn())]],
  // The first turn alone, for more rounds than waits gives it (FIRST_TURN_RUNS).
  ['first-turn', benchFirstTurn],
  // An item appended to a task with many turns stored: what an agent's MCP or REST append waits on.
  ['appends', benchTranscriptAppend],
  ['startup', async () => [...(await benchWorkerStartup()), ...(await benchFirstRequests()), await benchUploadReach(), await benchStartupSchemas(), ...(await benchStartup())]],
];

const only = process.argv.slice(2);
const unknown = only.filter((name) => !sections.some(([section]) => section === name));
if (unknown.length > 0) {
  console.error(`bench: no section ${unknown.join(', ')}; the sections are ${sections.map(([name]) => name).join(', ')}`);
  process.exit(2);
}
console.log(`date: ${new Date().toISOString().slice(0, 10)} (${process.platform}-${process.arch}, Node ${process.versions.node})`);
for (const [name, run] of sections) {
  if (only.length > 0 && !only.includes(name)) continue;
  for (const line of await run()) console.log(`${name}: ${line}`);
}

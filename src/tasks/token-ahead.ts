/**
 * @module tasks/token-ahead
 * A GitHub App task's installation token, asked for as its attempt begins, before the assembly code
 * loads (issue 56). A cold Task object spent ~48 ms of CPU evaluating its wiring (task-wiring: the
 * providers, the sources, ~340 KiB minified) and planning before the source's first request asked
 * for the token; now the token cache's read, the App JWT and `POST .../access_tokens` go out first,
 * and that evaluation runs during the exchange's round trip. This module needs only the GitHub
 * client (Octokit core, auth-app, the token cache), a small part of the wiring's code.
 *
 * The exchange is the client's own (sources/github/client: the token cache in memory and KV, the
 * JWT signed beside the KV read, the retries, the exchange's deadline, permanent refusals
 * remembered), through a client made here. The task's assembly opens its source with what this
 * returns (tasks/open-source `ahead`): the same credential and cache scope, the usage meter that
 * counted the exchange and the token store holding its write, and `auth.tokens.ahead`, which the
 * source's clients wait on before their first request: they find the token in the cache, or fail
 * with the exchange's own failure, so one exchange serves the attempt however early it ended.
 * A task that does not read GitHub as an App installation (a token, a git URL, a local repository)
 * begins nothing.
 */
import { getConfig } from '../env.ts';
import { explainNetworkErrors } from '../lib/network-errors.ts';
import { parseFullName } from '../sources/github/repo-name.ts';
import { createUsageMeter, type UsageMeter } from '../sources/github/usage-meter.ts';
import { writeBehind, type WriteBehindStore } from '../sources/write-behind.ts';
import { installationClient } from '../triggers/github/app-client.ts';
import { isGitUrl, isLocalRepo, type TaskRequest } from './task-request.ts';

export interface TokenAhead {
  /** auth-app's answer for the installation, or the exchange's failure as the client words it. */
  exchange: Promise<unknown>;
  /** Counted the exchange's requests; the source's reads go on counting in it. */
  meter: UsageMeter;
  /** The token store, its writes held as an assembly's are (write-behind `hold`). */
  tokens: WriteBehindStore;
}

export interface TokenAheadBegun {
  ahead: TokenAhead;
  /**
   * Resolves once the exchange's request has been handed to fetch (true) or the exchange ended
   * without one (false: a cached token, a failure); never rejects.
   */
  underWay: Promise<boolean>;
  /**
   * Resolves once the exchange waits on I/O (true: the token store's read is asked, the JWT signed
   * beside it, or the request handed over) or ended without any (false: the token was in memory,
   * or a failure); never rejects. Work begun after it runs during that read (a Task object's first
   * read of its delivery, task-create).
   */
  asked: Promise<boolean>;
}

export function tokenAhead(request: Pick<TaskRequest, 'repo' | 'githubInstallationId'>, env: Env): TokenAheadBegun | undefined {
  const installation = request.githubInstallationId;
  if (installation === undefined || isLocalRepo(request.repo) || isGitUrl(request.repo) || !parseFullName(request.repo).ok) return undefined;
  const tokens = writeBehind(env.TENANTS, { hold: true });
  const meter = createUsageMeter();
  // The wiring's own outbound fetch (task-wiring), so a failure reads as the assembly's would.
  const outbound = explainNetworkErrors((input, init) => fetch(input, init));
  let ask = (_io: boolean): void => {};
  const asked = new Promise<boolean>((resolve) => (ask = resolve));
  let sent = (_requested: boolean): void => {};
  const underWay = new Promise<boolean>((resolve) => (sent = resolve));
  const reading: WriteBehindStore = { ...tokens, get: (key, type) => (ask(true), tokens.get(key, type)) };
  const client = installationClient(getConfig(env), installation, { tokens: reading, fetch: meter.wrap((input, init) => (ask(true), sent(true), outbound(input, init))) });
  if (!client) return undefined;
  const exchange = client.auth({ type: 'installation' });
  const ended = () => (ask(false), sent(false));
  exchange.then(ended, ended);
  return { ahead: { exchange, meter, tokens }, underWay, asked };
}

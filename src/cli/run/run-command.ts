/**
 * @module cli/run/run-command
 * `groundwork run`: the whole service on this machine. Pins the commit locally, serves the
 * repository on loopback, boots the real Worker in Miniflare, creates the task through the REST
 * API (named `file:///…` as `groundwork context` names it, so the digest is the same), follows it
 * to `ready`, and prints the turn. `--keep` leaves the service up until Ctrl-C. Whatever it
 * started, it stops: on success, on failure and on interrupt.
 * Exit codes: 0 assembled, 1 the repository, the service or the task failed, 2 bad usage,
 * 130 interrupted before the turn was printed.
 */
// First: it configures zod before any schema below is built.
import '../zod-config.ts';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync, promises as fsPromises } from 'node:fs';
import { join, resolve } from 'node:path';
import { cliAgent } from '../cli-agent.ts';
import type { AssembledTurn } from '../../context/turn-schema.ts';
import { locateGitdir } from '../../sources/git/gitdir.ts';
import { isValidRefName } from '../../sources/git/ref-name.ts';
import { checkCommit } from '../../sources/git/verify-commit.ts';
import { failedProviders, unknownSkills, worktreeWarnings, type CliIo } from '../context-command.ts';
import { formatTurn, warningLines } from '../format.ts';
import { jsonOutput } from '../json-output.ts';
import { openLocalRepository } from '../open-local.ts';
import { createApiClient } from './api-client.ts';
import { followTask } from './follow-task.ts';
import { serveRepository, type RepositoryServer } from './repository-server.ts';
import { readFactsOption } from '../facts-option.ts';
import { parseRunArgs, RUN_USAGE } from './run-args.ts';
import { findWorkerBundle, preloadMiniflare, startWorker, type WorkerHost } from './worker-host.ts';
import { usageError } from '../usage.ts';

/** Local runs may read larger repositories than a deployed Worker's 128 MB allows. */
const LOCAL_MAX_FETCH_BYTES = 256 * 1024 * 1024;

export interface InterruptSource {
  /** Calls `handler` on Ctrl-C (or SIGTERM); returns the unsubscribe. */
  onInterrupt(handler: () => void): () => void;
}

export interface RunDeps {
  signals?: InterruptSource;
  /** Called once the repository is served; tests read its request counts. */
  onServed?: (server: RepositoryServer) => void;
}

export const RUN_EXIT = { assembled: 0, failed: 1, usage: 2, interrupted: 130 } as const;

class Interrupted extends Error {}

export async function runRunCommand(argv: readonly string[], io: CliIo, deps: RunDeps = {}): Promise<number> {
  const parsed = parseRunArgs(argv);
  if (!parsed.ok) {
    io.stderr(usageError('groundwork run', parsed.error, 'groundwork run --help'));
    return RUN_EXIT.usage;
  }
  const options = parsed.options;
  if (options.help) {
    io.stdout(`${RUN_USAGE}\n`);
    return RUN_EXIT.assembled;
  }
  const agent = cliAgent(options.agent);
  if (!agent.ok) {
    io.stderr(`groundwork run: --agent: ${agent.error}\n`);
    return RUN_EXIT.usage;
  }
  const facts = readFactsOption(options.facts);
  if (!facts.ok) {
    io.stderr(`groundwork run: ${facts.error}\n`);
    return RUN_EXIT.usage;
  }
  const progress = (line: string): void => io.stderr(`groundwork run: ${line}\n`);
  preloadMiniflare().catch(() => undefined);

  const opened = await openLocalRepository({ repo: options.repo, ref: options.ref, cwd: options.cwd, readTree: !options.untrusted });
  if (!opened.ok) {
    io.stderr(`groundwork run: ${opened.error}\n`);
    return opened.exit;
  }
  const { source, commit, cwd, root } = opened;
  const where = await locateGitdir(fsPromises, root);
  if (!where.ok) {
    io.stderr(`groundwork run: ${where.reason}\n`);
    return RUN_EXIT.failed;
  }
  // The Worker will fetch the commit: one whose commit or trees are missing is said here, once,
  // instead of a pack the Worker's git client calls corrupted. Files without their content are
  // served without it (repository-server) and named in a warning.
  const servable = options.untrusted ? { ok: true as const, absent: [] } : checkCommit(where.gitdir, root, commit);
  if (!servable.ok) {
    io.stderr(`groundwork run: cannot read ${root}: ${servable.problem}\n`);
    return RUN_EXIT.failed;
  }
  const worktree = opened.bare || options.untrusted ? [] : await worktreeWarnings(opened, source.snapshot(commit), options.ref, [], options.path);
  const unreadable = source.unreadable?.();
  // A file whose content is absent, which the comparison above may have tried to read, is named in
  // the warning and served without it; anything else the repository could not give stops here.
  if (unreadable !== undefined && !servable.absent.some((blob) => unreadable.includes(blob))) {
    io.stderr(`groundwork run: cannot read ${root}: ${unreadable}\n`);
    return RUN_EXIT.failed;
  }
  for (const warning of [...opened.warnings, ...(servable.warning ? [servable.warning] : []), ...worktree]) io.stderr(`warning: ${warning}\n`);
  const bundle = findWorkerBundle();
  if (!bundle.ok) {
    io.stderr(`groundwork run: ${bundle.reason}\n`);
    return RUN_EXIT.failed;
  }
  const stateDir = options.state ? resolve(options.state) : join(root, '.groundwork', 'state');
  prepareStateDir(stateDir, options.state === undefined);

  let onInterrupt: () => void = () => undefined;
  const interrupted = new Promise<never>((_, reject) => (onInterrupt = () => reject(new Interrupted())));
  interrupted.catch(() => undefined);
  const unsubscribe = deps.signals?.onInterrupt(() => onInterrupt()) ?? (() => undefined);
  const step = <T>(work: Promise<T>): Promise<T> => Promise.race([work, interrupted]);

  let server: Promise<RepositoryServer> | undefined;
  let host: Promise<WorkerHost> | undefined;
  try {
    server = serveRepository(where.gitdir);
    const served = await step(server);
    deps.onServed?.(served);
    progress(`serving ${root} (${options.ref} = ${commit.slice(0, 12)}) at ${served.url}`);

    const token = randomBytes(24).toString('hex');
    const started = performance.now();
    host = startWorker(bundle, {
      stateDir,
      port: options.port,
      handlesInterrupts: deps.signals !== undefined,
      bindings: {
        API_TOKENS: `local=${token}`,
        // Signs this run's inspector links; a new secret each run, so old links stop opening.
        VIEW_LINK_SECRET: randomBytes(32).toString('hex'),
        GIT_ALLOWED_HOSTS: '127.0.0.1',
        GIT_MAX_FETCH_BYTES: String(LOCAL_MAX_FETCH_BYTES),
        LOCAL_REPOSITORIES: JSON.stringify({ [source.repository]: served.url }),
      },
      onLog: (level, message) => {
        if (options.keep || level === 'error' || level === 'warn') io.stderr(`worker ${level}: ${message}\n`);
      },
    });
    const worker = await step(host);
    progress(`Worker ready in ${ms(started)} at ${worker.url.origin} (Miniflare; state in ${stateDir})`);

    const api = createApiClient(worker.url, token);
    const assembling = performance.now();
    const { id, viewUrl } = await step(
      api.createTask({ repo: source.repository, ref: remoteRef(options.ref, commit), commit, cwd, paths: options.path, request: options.task, agent: agent.agent.name, ...(options.client === undefined ? {} : { client: options.client }), trusted: !options.untrusted, skills: options.skill, origin: 'cli', ...(facts.facts.length > 0 ? { facts: facts.facts } : {}) }),
    );
    progress(`task ${id}`);
    if (viewUrl) progress(`inspector: ${viewUrl}${options.keep ? '' : ' (open while this run lasts; --keep leaves it up)'}`);
    const outcome = await step(followTask(api, id, (status) => progress(`  ${status}`)));
    if (!outcome.ok) {
      io.stderr(`groundwork run: task ${id} failed: ${outcome.reason}\n`);
      return RUN_EXIT.failed;
    }
    const turns: AssembledTurn[] = [await step(api.turn(id, 0))];
    for (let turn = 1; turn < options.turns; turn++) turns.push(await step(api.beginTurn(id, turn)));
    const fetched = served.requests();
    progress(`assembled in ${ms(assembling)}; git requests to the repository: ${fetched.total} (${fetched.uploadPack} ${fetched.uploadPack === 1 ? 'fetch' : 'fetches'})${fetched.total === 0 ? ', all from the KV cache' : ''}`);

    const [first] = turns;
    const notices = first ? [...unknownSkills(first, options.skill), ...failedProviders(first)] : [];
    for (const line of [...notices.map((notice) => `warning: ${notice}`), ...turns.flatMap(warningLines)]) io.stderr(`${line}\n`);
    if (options.json) io.stdout(jsonOutput(turns.length === 1 ? turns[0] : turns));
    else io.stdout(`${turns.map(formatTurn).join('\n\n')}\n`);

    if (options.keep) {
      io.stderr(keepBanner(worker.url, token, id, viewUrl, source.repository));
      await interrupted.catch(() => undefined);
      progress('stopping');
    }
    return RUN_EXIT.assembled;
  } catch (error) {
    if (error instanceof Interrupted) {
      progress('interrupted; stopping');
      return RUN_EXIT.interrupted;
    }
    io.stderr(`groundwork run: ${error instanceof Error ? error.message : String(error)}\n`);
    return RUN_EXIT.failed;
  } finally {
    unsubscribe();
    await Promise.all([
      host?.then((running) => running.dispose()).catch(() => undefined),
      server?.then((running) => running.close()).catch(() => undefined),
    ]);
  }
}

/** The state directory is created; the default one, inside the user's repository, ignores itself. */
function prepareStateDir(stateDir: string, inRepository: boolean): void {
  mkdirSync(stateDir, { recursive: true });
  if (inRepository) writeFileSync(join(stateDir, '..', '.gitignore'), '# groundwork run state\n*\n');
}

function keepBanner(url: URL, token: string, id: string, viewUrl: string | null, repository: string): string {
  const base = url.origin;
  return [
    '',
    `Groundwork is running at ${base}`,
    `  token: ${token}   (tenant "local")`,
    `  repository: ${repository}   (the one repository this instance serves; tasks may name it as "repo")`,
    ...(viewUrl ? [`  inspector: ${viewUrl}`] : []),
    `  export GROUNDWORK_URL=${base} GROUNDWORK_TOKEN=${token} GROUNDWORK_REPO=${repository} GROUNDWORK_TASK=${id}`,
    `  curl -s ${base}/tasks/${id} -H 'authorization: Bearer ${token}'`,
    `  curl -s ${base}/tasks/${id}/turns/0 -H 'authorization: Bearer ${token}'`,
    'Press Ctrl-C to stop.',
    '',
  ].join('\n');
}

function ms(since: number): string {
  return `${Math.round(performance.now() - since)} ms`;
}

/** The service takes ref names only; `HEAD~1` is pinned by the commit it resolved to here. */
function remoteRef(ref: string, commit: string): string {
  return isValidRefName(ref) ? ref : commit;
}

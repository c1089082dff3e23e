/**
 * @module cli/mcp
 * `groundwork mcp`: the Groundwork MCP server over stdio for repositories on this machine, the
 * same tools and resources as the service's `/mcp` (mcp/server) over the CLI's local assembly
 * (cli/mcp-local). stdout carries protocol frames only; every log line goes to stderr. With
 * `--service URL` and a token (`GROUNDWORK_TOKEN`) the knowledge tools go to that service.
 * Exit codes: 0 the client closed the connection, 2 bad usage.
 */
// First: it configures zod before any schema below is built.
import './zod-config.ts';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadDeploymentAgents } from '../deployment-agents.ts';
import { MAX_JSON_BYTES } from '../http/validate.ts';
import { createGroundworkServer } from '../mcp/server.ts';
import { createDefaultRegistry } from '../providers/registry.ts';
import type { CliIo } from './context-command.ts';
import { localBackend } from './mcp-local.ts';
import { localToolSet } from './mcp-local-tools.ts';
import { localSkillTools } from './mcp-skills.ts';
import { serveStdio } from './mcp-stdio.ts';
import { usageError } from './usage.ts';

export const MCP_USAGE = `Usage: groundwork mcp [--repo PATH] [--service URL]

Runs the Groundwork MCP server over stdio, for an agent to start (Claude Code, Codex CLI, Gemini
CLI, Copilot, Cursor, VS Code, the Agent SDKs). assemble_context reads a repository on this
machine: by default the one the server was started in (its working directory, or --repo PATH),
or any other named by its path. check_before answers push and report-ci as groundwork check does.
The knowledge tools (remember, recall, retire_knowledge) are offered with --service URL and
GROUNDWORK_TOKEN, and go to that service. Logs go to stderr; stdout carries protocol messages only.`;

export async function runMcpCommand(argv: readonly string[], io: CliIo, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const options = parseMcpArgs(argv, env);
  if (!options.ok) {
    io.stderr(usageError('groundwork mcp', options.error, 'groundwork mcp --help'));
    return 2;
  }
  if (options.help) {
    // A person asked: stdout is not a protocol stream here.
    io.stdout(`${MCP_USAGE}\n`);
    return 0;
  }
  const agents = loadDeploymentAgents();
  if (!agents.ok) {
    io.stderr(`groundwork mcp: the bundled agents file is invalid: ${agents.issues.map((issue) => `${issue.field}: ${issue.message}`).join('; ')}\n`);
    return 1;
  }
  const backend = { ...localBackend({ registry: createDefaultRegistry(), agents: agents.catalog, env, ...(options.service ? { service: options.service } : {}) }), ...localSkillTools({ repo: options.repo }) };
  const shared = createGroundworkServer(backend, {
    where: 'local',
    log: (message, error) => io.stderr(`groundwork mcp: ${message}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`),
  });
  const server = localToolSet(shared, { repo: options.repo, knowledge: options.service !== undefined });
  io.stderr(`groundwork mcp: serving ${options.repo} over stdio${options.service ? `, knowledge from ${options.service.url}` : ''}\n`);
  await serveStdio(process.stdin, io.stdout, server, MAX_JSON_BYTES);
  return 0;
}

type McpOptions = { ok: true; help: boolean; repo: string; service?: { url: string; token: string } } | { ok: false; error: string };

function parseMcpArgs(argv: readonly string[], env: NodeJS.ProcessEnv): McpOptions {
  let service: string | undefined;
  let repoOption: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '-h' || arg === '--help') return { ok: true, help: true, repo: process.cwd() };
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    if (flag !== '--service' && flag !== '--repo') return { ok: false, error: `unknown option ${arg}` };
    const value = inline ?? argv[++i];
    if (value === undefined || value === '') return { ok: false, error: flag === '--service' ? '--service needs a URL' : '--repo needs a path' };
    if (flag === '--service') service = value;
    else repoOption = value;
  }
  const repo = resolve(repoOption ?? process.cwd());
  if (repoOption !== undefined && !existsSync(repo)) return { ok: false, error: `--repo: there is no ${repo}` };
  if (service === undefined) return { ok: true, help: false, repo };
  let url: URL;
  try {
    url = new URL(service);
  } catch {
    return { ok: false, error: `--service: ${service} is not a URL` };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { ok: false, error: '--service: must be an http(s) URL' };
  if (url.username || url.password) return { ok: false, error: '--service: give the token in GROUNDWORK_TOKEN, not in the URL' };
  const token = env['GROUNDWORK_TOKEN'];
  if (!token) return { ok: false, error: '--service needs a token: set GROUNDWORK_TOKEN' };
  // Knowledge routes are at the service's root (`/knowledge`): a path after the origin is not kept.
  return { ok: true, help: false, repo, service: { url: url.origin, token } };
}

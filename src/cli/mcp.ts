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
import { loadDeploymentAgents } from '../deployment-agents.ts';
import { MAX_JSON_BYTES } from '../http/validate.ts';
import { createGroundworkServer } from '../mcp/server.ts';
import { createDefaultRegistry } from '../providers/registry.ts';
import type { CliIo } from './context-command.ts';
import { localBackend } from './mcp-local.ts';
import { serveStdio } from './mcp-stdio.ts';

export const MCP_USAGE = `Usage: groundwork mcp [--service URL]

Runs the Groundwork MCP server over stdio, for an agent to start (Claude Code, Codex CLI, Gemini
CLI, Cursor, the Agent SDKs). assemble_context reads a repository on this machine, named
file:///path/to/repo. The knowledge tools (remember, recall, retire_knowledge) go to the service
given with --service and GROUNDWORK_TOKEN; without one they answer that they are not available
locally. Logs go to stderr; stdout carries protocol messages only.`;

export async function runMcpCommand(argv: readonly string[], io: CliIo, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const options = parseMcpArgs(argv, env);
  if (!options.ok) {
    io.stderr(`groundwork mcp: ${options.error}\n\n${MCP_USAGE}\n`);
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
  const backend = localBackend({ registry: createDefaultRegistry(), agents: agents.catalog, ...(options.service ? { service: options.service } : {}) });
  const server = createGroundworkServer(backend, {
    where: 'local',
    log: (message, error) => io.stderr(`groundwork mcp: ${message}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`),
  });
  io.stderr(`groundwork mcp: serving over stdio${options.service ? `, knowledge from ${options.service.url}` : ''}\n`);
  await serveStdio(process.stdin, io.stdout, server, MAX_JSON_BYTES);
  return 0;
}

type McpOptions = { ok: true; help: boolean; service?: { url: string; token: string } } | { ok: false; error: string };

function parseMcpArgs(argv: readonly string[], env: NodeJS.ProcessEnv): McpOptions {
  let service: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '-h' || arg === '--help') return { ok: true, help: true };
    if (arg === '--service') {
      service = argv[++i];
      if (service === undefined) return { ok: false, error: '--service needs a URL' };
      continue;
    }
    if (arg?.startsWith('--service=')) {
      service = arg.slice('--service='.length);
      continue;
    }
    return { ok: false, error: `unknown option ${arg}` };
  }
  if (service === undefined) return { ok: true, help: false };
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
  return { ok: true, help: false, service: { url: url.origin, token } };
}

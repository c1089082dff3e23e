/**
 * The packages and configuration files for the agents' own installers (`integrations/`, and the
 * Claude Code marketplace at `.claude-plugin/`), held to the shapes each agent documents: every
 * hook they configure runs a `groundwork hook` the agent's protocol answers, for the event it is
 * configured on; every MCP server is `groundwork mcp` or a service URL; no file holds a secret,
 * only a reference the agent expands; and docs/integrations.md shows exactly these files. The
 * agents' own validators were run on them by hand too (`claude plugin validate --strict`,
 * `gemini extensions validate`: see docs/integrations.md).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import type { HookClient } from '../../src/cli/hooks/notice.ts';
import { HOOK_EVENTS, type HookEvent } from '../../src/cli/hooks/protocol.ts';
import { HOOK_PROTOCOLS } from '../../src/cli/hooks/protocols.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const read = (path: string): string => readFileSync(join(ROOT, path), 'utf8');
const json = (path: string): unknown => JSON.parse(read(path));

/** Claude Code, Codex and Gemini CLI share this shape: event -> matcher groups -> command handlers. */
const matcherGroups = <H extends z.ZodType>(handler: H) => z.record(z.string(), z.array(z.strictObject({ matcher: z.string().optional(), hooks: z.array(handler).min(1) })));

/** Claude Code's command hook (code.claude.com/docs/en/hooks: `timeout` in seconds). */
const ClaudeHandler = z.strictObject({ type: z.literal('command'), command: z.string(), timeout: z.number().int().positive().optional() });
/** Codex's command handler (openai/codex HookHandlerConfig::Command: `timeout` seconds, `additionalContextLimit` tokens). */
const CodexHandler = z.strictObject({
  type: z.literal('command'),
  command: z.string(),
  commandWindows: z.string().optional(),
  timeout: z.number().int().positive().optional(),
  async: z.boolean().optional(),
  statusMessage: z.string().optional(),
  additionalContextLimit: z.number().int().nonnegative().optional(),
});
/** Gemini CLI's hook configuration (docs/hooks/reference.md: `timeout` in milliseconds). */
const GeminiHandler = z.strictObject({ type: z.literal('command'), command: z.string(), name: z.string().optional(), timeout: z.number().int().positive().optional(), description: z.string().optional() });
/** Copilot's command hook (docs.github.com hooks reference: `timeoutSec` seconds). */
const CopilotHandler = z.strictObject({ type: z.literal('command'), bash: z.string(), powershell: z.string().optional(), cwd: z.string().optional(), env: z.record(z.string(), z.string()).optional(), timeoutSec: z.number().int().positive().optional() });

const McpStdio = z.strictObject({ type: z.literal('stdio').optional(), command: z.literal('groundwork'), args: z.array(z.string()).refine((args) => args[0] === 'mcp', 'runs groundwork mcp') });

const PluginManifest = z.strictObject({
  name: z.string().regex(/^[a-z][a-z0-9-]*$/),
  version: z.string().regex(/^\d+\.\d+\.\d+$/),
  description: z.string().min(1),
  author: z.strictObject({ name: z.string() }),
  license: z.string(),
  keywords: z.array(z.string()),
  mcpServers: z.record(z.string(), McpStdio),
  hooks: matcherGroups(ClaudeHandler),
});

const Marketplace = z.strictObject({
  name: z.string(),
  owner: z.strictObject({ name: z.string() }),
  description: z.string(),
  plugins: z.array(z.strictObject({ name: z.string(), source: z.string().startsWith('./'), description: z.string() })).min(1),
});

const GeminiExtension = z.strictObject({ name: z.string().regex(/^[a-z0-9-]+$/), version: z.string(), description: z.string(), mcpServers: z.record(z.string(), McpStdio) });

/** `groundwork hook <event> --client <client>` in a configured command. */
function hookCall(command: string): { event: HookEvent; client: HookClient } {
  const match = /^groundwork hook (\S+) --client (\S+)$/.exec(command);
  if (!match) throw new Error(`not a groundwork hook: ${command}`);
  const [, event = '', client = ''] = match;
  if (!(HOOK_EVENTS as readonly string[]).includes(event) || !(client in HOOK_PROTOCOLS)) throw new Error(`unknown hook ${event} or client ${client}: ${command}`);
  return { event: event as HookEvent, client: client as HookClient };
}

/** Each configured agent event runs the groundwork hook whose protocol answers that event, with matchers the agent documents. */
function expectHooksAnswer(client: HookClient, hooks: Record<string, Array<{ matcher?: string | undefined; hooks: Array<{ command?: string; bash?: string }> }>>) {
  const configured = Object.entries(hooks).flatMap(([agentEvent, groups]) => groups.flatMap((group) => group.hooks.map((handler) => ({ agentEvent, matcher: group.matcher, call: hookCall(handler.command ?? handler.bash ?? '') }))));
  expect(configured.length).toBeGreaterThan(0);
  for (const { agentEvent, matcher, call } of configured) {
    expect(call.client, agentEvent).toBe(client);
    const spec = HOOK_PROTOCOLS[client].events[call.event];
    expect(spec?.agentEvent, `${agentEvent} runs ${call.event}`).toBe(agentEvent);
    if (matcher !== undefined && matcher !== '*' && spec?.sources) for (const source of matcher.split('|')) expect(spec.sources, `${agentEvent} matcher`).toContain(source);
  }
  // Every event the protocol answers is configured.
  expect(new Set(configured.map(({ call }) => call.event))).toEqual(new Set(Object.keys(HOOK_PROTOCOLS[client].events)));
}

describe('the Claude Code plugin', () => {
  it('declares the MCP server and the hooks, and gives the rules back after a compaction', () => {
    const plugin = PluginManifest.parse(json('integrations/claude-code/.claude-plugin/plugin.json'));
    expect(plugin.version).toBe((json('package.json') as { version: string }).version);
    expect(plugin.mcpServers).toEqual({ groundwork: { command: 'groundwork', args: ['mcp'] } });
    expectHooksAnswer('claude-code', plugin.hooks);
    expect(plugin.hooks['SessionStart']?.[0]?.matcher?.split('|')).toContain('compact');
  });

  it('is listed by the marketplace at the repository root, by the same name', () => {
    const market = Marketplace.parse(json('.claude-plugin/marketplace.json'));
    for (const entry of market.plugins) {
      const manifest = join(entry.source, '.claude-plugin', 'plugin.json');
      expect(existsSync(join(ROOT, manifest)), manifest).toBe(true);
      expect((json(manifest) as { name: string }).name).toBe(entry.name);
    }
  });
});

describe('the Gemini CLI extension', () => {
  it('declares the MCP server for the workspace, and its hooks in hooks/hooks.json with timeouts in milliseconds', () => {
    const extension = GeminiExtension.parse(json('integrations/gemini-cli/gemini-extension.json'));
    expect(extension.version).toBe((json('package.json') as { version: string }).version);
    expect(extension.mcpServers['groundwork']?.args).toEqual(['mcp', '--repo', '${workspacePath}']);
    const hooks = z.strictObject({ hooks: matcherGroups(GeminiHandler) }).parse(json('integrations/gemini-cli/hooks/hooks.json')).hooks;
    expectHooksAnswer('gemini-cli', hooks);
    for (const handler of Object.values(hooks).flat().flatMap((group) => group.hooks)) expect(handler.timeout).toBeGreaterThanOrEqual(1000);
  });
});

describe('the Codex configuration', () => {
  it('runs the session-start hook on compaction too, with room for the context', () => {
    const hooks = z.strictObject({ hooks: matcherGroups(CodexHandler) }).parse(json('integrations/codex/hooks.json')).hooks;
    expectHooksAnswer('codex', hooks);
    expect(hooks['SessionStart']?.[0]?.hooks[0]?.additionalContextLimit).toBeGreaterThan(2_500);
  });

  it('declares the local server and the service, whose token Codex reads from the environment', () => {
    const toml = read('integrations/codex/config.toml');
    expect(toml).toMatch(/^\[mcp_servers\.groundwork\]\ncommand = "groundwork"\nargs = \["mcp"\]$/m);
    expect(toml).toMatch(/^\[mcp_servers\.groundwork-service\]\nurl = "https:\/\/groundwork\.example\.com\/mcp"\nbearer_token_env_var = "GROUNDWORK_TOKEN"$/m);
  });
});

describe('the Copilot configuration', () => {
  it('has a sessionStart hook in .github/hooks form, and no prompt hook (Copilot drops its output)', () => {
    const file = z.strictObject({ version: z.literal(1), hooks: z.record(z.string(), z.array(CopilotHandler)) }).parse(json('integrations/copilot/hooks.json'));
    expect(Object.keys(file.hooks)).toEqual(['sessionStart']);
    expectHooksAnswer('copilot', Object.fromEntries(Object.entries(file.hooks).map(([event, handlers]) => [event, [{ hooks: handlers }]])));
  });

  it("gives the cloud agent the service with a COPILOT_MCP_ secret and read-only tools listed", () => {
    const config = z
      .strictObject({ mcpServers: z.record(z.string(), z.strictObject({ type: z.literal('http'), url: z.string().url(), headers: z.record(z.string(), z.string()), tools: z.array(z.string()).min(1) })) })
      .parse(json('integrations/copilot/mcp.json'));
    expect(config.mcpServers['groundwork']?.headers['Authorization']).toBe('Bearer $COPILOT_MCP_GROUNDWORK_TOKEN');
    expect(config.mcpServers['groundwork']?.tools).not.toContain('remember');
  });
});

describe('the VS Code and Cursor MCP files', () => {
  it('use each editor’s key and variables: VS Code "servers" with a password input, Cursor "mcpServers" with ${env:…}', () => {
    const vscode = z
      .strictObject({
        inputs: z.array(z.strictObject({ type: z.literal('promptString'), id: z.string(), description: z.string(), password: z.literal(true) })),
        servers: z.record(z.string(), z.union([McpStdio.extend({ type: z.literal('stdio') }), z.strictObject({ type: z.literal('http'), url: z.string(), headers: z.record(z.string(), z.string()) })])),
      })
      .parse(json('integrations/vscode/mcp.json'));
    expect(vscode.servers['groundwork']).toMatchObject({ args: ['mcp', '--repo', '${workspaceFolder}'] });
    expect(vscode.servers['groundwork-service']).toMatchObject({ headers: { Authorization: 'Bearer ${input:groundwork-token}' } });
    const cursor = z
      .strictObject({ mcpServers: z.record(z.string(), z.union([McpStdio, z.strictObject({ url: z.string(), headers: z.record(z.string(), z.string()) })])) })
      .parse(json('integrations/cursor/mcp.json'));
    expect(cursor.mcpServers['groundwork-service']).toMatchObject({ headers: { Authorization: 'Bearer ${env:GROUNDWORK_TOKEN}' } });
  });
});

describe('secrets', () => {
  it('are never in a committed file: every credential is a reference the agent expands', () => {
    const files = ['.claude-plugin/marketplace.json', ...listFiles('integrations')];
    for (const file of files) {
      const text = read(file);
      for (const match of text.matchAll(/Bearer ([^"\s]+)/g)) expect(match[1], file).toMatch(/^(\$\{[A-Za-z_:.-]+\}|\$COPILOT_MCP_[A-Z_]+)$/);
      expect(text, file).not.toMatch(/(ghp_|sk-|github_pat_|xox[bp]-)[A-Za-z0-9]/);
    }
  });
});

describe('docs/integrations.md', () => {
  it('shows each file exactly as it is', () => {
    const docs = read('docs/integrations.md');
    const shown = [...docs.matchAll(/<!-- file: (\S+) -->\n```(\w+)\n([\s\S]*?)\n```/g)].map((match) => ({ file: match[1] ?? '', language: match[2] ?? '', text: match[3] ?? '' }));
    const expected = ['integrations/claude-code/.claude-plugin/plugin.json', 'integrations/codex/config.toml', 'integrations/codex/hooks.json', 'integrations/gemini-cli/gemini-extension.json', 'integrations/gemini-cli/hooks/hooks.json', 'integrations/copilot/hooks.json', 'integrations/copilot/mcp.json', 'integrations/vscode/mcp.json', 'integrations/cursor/mcp.json'];
    expect(shown.map(({ file }) => file).sort()).toEqual([...expected].sort());
    for (const { file, language, text } of shown) {
      if (language === 'json') expect(JSON.parse(text), file).toEqual(json(file));
      else expect(text, file).toBe(read(file).trimEnd());
    }
  });
});

function listFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? listFiles(join(dir, entry.name)) : [join(dir, entry.name)]));
}

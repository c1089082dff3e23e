import { describe, expect, it } from 'vitest';
import codingAgents from '../../examples/agents/coding-agents.json' with { type: 'json' };
import { agentHash, AgentsFileSchema, createAgentCatalog, narrowTools, resolveAgent } from '../../src/context/agent-catalog.ts';
import { BUILTIN_AGENTS, type AgentConfig } from '../../src/context/agents.ts';
import { describeIssues } from '../../src/context/zod-issues.ts';
import { loadDeploymentAgents } from '../../src/deployment-agents.ts';

const tool = (name: string, extra: Record<string, unknown> = {}) => ({ name, description: `The ${name} tool.`, input_schema: { type: 'object', properties: {} }, ...extra });
const agent = (tools: unknown[], extra: Record<string, unknown> = {}) => ({ name: 'custom', instructions: 'Do it.', providers: 'all', capabilities: ['repo:read'], totalBudget: 8_000, tools, ...extra });

/** The issues of a file with one agent, as the 503's log names them. */
function problems(file: unknown): string {
  const parsed = AgentsFileSchema.safeParse(file);
  return parsed.success ? '' : describeIssues(parsed.error, '');
}

describe('agents file', () => {
  it("takes Claude Code's and Codex's tool sets as written, names and schemas unchanged", () => {
    const file = AgentsFileSchema.parse(codingAgents);
    expect(file.agents.map((one) => [one.name, one.tools.map((t) => t.name)])).toEqual([
      ['claude-code', ['Bash', 'Read', 'Edit', 'Write', 'Glob', 'Grep', 'TodoWrite']],
      ['codex', ['shell', 'apply_patch', 'update_plan', 'view_image']],
    ]);
    expect(file.agents[0]?.tools[6]?.input_schema).toEqual(codingAgents.agents[0]?.tools[6]?.input_schema);
  });

  it.each([
    [[tool('read.file')], 'agents[0].tools[0].name: must be 1-64 characters of a-z A-Z 0-9 _ -'],
    [[tool('a'.repeat(65))], 'agents[0].tools[0].name: must be 1-64 characters'],
    [[tool('mcp/github')], 'agents[0].tools[0].name: must be 1-64 characters'],
    [[tool('Read'), tool('Read')], 'agents[0].tools[1].name: "Read" is declared twice'],
    [[tool('Read', { description: '  ' })], 'agents[0].tools[0].description: must not be empty'],
    [[tool('Read', { description: 'x'.repeat(16_001) })], 'agents[0].tools[0].description: Too big'],
    [[tool('Read', { input_schema: { type: 'string' } })], 'agents[0].tools[0].input_schema.type: must be "object"'],
    [[tool('Read', { input_schema: [] })], 'agents[0].tools[0].input_schema: Invalid input: expected object'],
    [[tool('Read', { input_schema: { type: 'object', required: 'path' } })], 'agents[0].tools[0].input_schema.required: must be a list of distinct property names'],
    [[tool('Read', { input_schema: { type: 'object', properties: { path: 'string' } } })], 'agents[0].tools[0].input_schema.properties.path: must be a JSON Schema'],
    [[tool('Read', { input_schema: { type: 'object', properties: { n: { type: 'int' } } } })], 'agents[0].tools[0].input_schema.properties.n.type: must name JSON types'],
    [[tool('Read', { input_schema: { type: 'object', anyOf: [] } })], 'agents[0].tools[0].input_schema.anyOf: must be a non-empty list of schemas'],
    [[tool('Read', { input_schema: { type: 'object', properties: { list: { type: 'array', items: { description: 7 } } } } })], 'agents[0].tools[0].input_schema.properties.list.items.description: must be a string'],
    [[tool('Read', { input_schema: deepSchema(30) })], 'agents[0].tools[0].input_schema: nests deeper than 24 levels'],
    [[tool('Read', { input_schema: { type: 'object', description: 'x'.repeat(40_000) } })], 'agents[0].tools[0].input_schema: is 40034 bytes as JSON, over 32768'],
    [Array.from({ length: 65 }, (_, i) => tool(`t${i}`)), 'agents[0].tools: Too big'],
  ])('refuses a bad tool catalog, naming the field: %#', (tools, message) => {
    expect(problems({ agents: [agent(tools)] })).toContain(message);
  });

  it.each([
    [{ agents: [agent([], { name: 'Custom' })] }, 'agents[0].name: must be 1-64 characters of a-z 0-9 -'],
    [{ agents: [agent([], { capabilities: ['shell:exec'] })] }, 'agents[0].capabilities[0]'],
    [{ agents: [agent([], { instructions: '' })] }, 'agents[0].instructions: must not be empty'],
    [{ agents: [agent([], { contextOrder: 'random' })] }, 'agents[0].contextOrder'],
    [{ agents: [agent([], { tool: [] })] }, 'agents[0]: Unrecognized key: "tool"'],
    [{ agents: [agent([]), agent([])] }, 'agents[1].name: "custom" is declared twice'],
    [{ agents: [], extra: true }, 'Unrecognized key: "extra"'],
  ])('refuses a bad agent, naming the field: %#', (file, message) => {
    expect(problems(file)).toContain(message);
  });

  it('declares agents over the built-ins: a built-in name replaces it in place, a new one comes after', () => {
    const file = AgentsFileSchema.parse({ agents: [agent([tool('Read')], { name: 'reviewer' }), agent([tool('Bash')])] });
    const catalog = createAgentCatalog(file.agents);
    expect([...catalog.keys()]).toEqual(['entry', 'reviewer', 'explorer', 'communicator', 'custom']);
    expect(catalog.get('reviewer')?.tools.map((t) => t.name)).toEqual(['Read']);
    expect(catalog.get('entry')).toBe(BUILTIN_AGENTS.get('entry'));
    expect(resolveAgent('wizard', catalog)).toEqual({ ok: false, error: 'unknown agent "wizard"; known agents: entry, reviewer, explorer, communicator, custom' });
  });
});

describe('narrowTools', () => {
  const claude = AgentsFileSchema.parse(codingAgents).agents[0] as AgentConfig;

  it('keeps the named tools in the catalog order, whatever order the task names them in', () => {
    const narrowed = narrowTools(claude, ['Grep', 'Read']);
    expect(narrowed.ok && narrowed.agent.tools.map((t) => t.name)).toEqual(['Read', 'Grep']);
    expect(narrowTools(claude, undefined)).toEqual({ ok: true, agent: claude });
    const none = narrowTools(claude, []);
    expect(none.ok && none.agent.tools).toEqual([]);
  });

  it('never adds a tool: a name the agent lacks is refused with its index', () => {
    expect(narrowTools(claude, ['Read', 'rm_rf'])).toEqual({
      ok: false,
      index: 1,
      error: 'agent "claude-code" has no tool "rm_rf"; a task may only narrow its tools (Bash, Read, Edit, Write, Glob, Grep, TodoWrite)',
    });
  });
});

describe('agentHash', () => {
  it('names the configuration: the same for an equal one, another when one tool description changes', async () => {
    const claude = AgentsFileSchema.parse(codingAgents).agents[0] as AgentConfig;
    const copy = AgentsFileSchema.parse(JSON.parse(JSON.stringify(codingAgents))).agents[0] as AgentConfig;
    const edited = { ...claude, tools: claude.tools.map((t) => (t.name === 'Grep' ? { ...t, description: `${t.description} Faster than grep.` } : t)) };
    expect(await agentHash(copy)).toBe(await agentHash(claude));
    expect(await agentHash(edited)).not.toBe(await agentHash(claude));
    expect(await agentHash(claude)).toMatch(/^sha256:[0-9a-f]{64}$/);
  });
});

function deepSchema(depth: number): Record<string, unknown> {
  let schema: Record<string, unknown> = { type: 'string' };
  for (let level = 0; level < depth; level++) schema = { type: 'object', properties: { inner: schema } };
  return schema;
}

describe("the deployment's agents file", () => {
  it('declaring no agents gives the built-ins, as its parse does', () => {
    const loaded = loadDeploymentAgents({ agents: [] });
    expect(loaded.ok).toBe(true);
    const parsed = createAgentCatalog(AgentsFileSchema.parse({ agents: [] }).agents);
    expect(loaded.ok && [...loaded.catalog]).toEqual([...parsed]);
    expect(loaded.ok && [...loaded.catalog.keys()]).toEqual([...BUILTIN_AGENTS.keys()]);
  });

  it.each([
    ['an empty list beside another key', { agents: [], extra: true }, 'agents.json (root)'],
    ['no list', { agents: 'none' }, 'agents.json agents'],
    ['an agent', { agents: [agent([tool('read.file')])] }, 'agents.json agents[0].tools[0].name'],
  ])('declaring anything else is parsed and refused by field: %s', (_, file, field) => {
    const loaded = loadDeploymentAgents(file);
    expect(loaded.ok).toBe(false);
    expect(loaded.ok ? [] : loaded.issues.map((issue) => issue.field)).toContain(field);
  });
});

/**
 * @module context/client
 * The coding-agent client that reads a task's context (Codex, Claude Code, Gemini CLI, Copilot,
 * Cursor), distinct from Groundwork's agent configurations (`entry`, `reviewer`): what the host
 * names on `POST /tasks`, MCP `assemble_context` and `--client`, as `name`, `name@version`, and
 * for Copilot, whose hosts load differently, `copilot:vscode` or `copilot:cli` (Copilot CLI and
 * the cloud agent, one runtime); plain `copilot` is any of them. `none` is a host that loads no
 * instruction file itself, and the default. The names live here, apart from the profiles
 * (src/clients/) that say what each client loads, so a request is checked without loading them;
 * this module imports nothing, so every entry point resolves a name with the same `parseClient`
 * (the request schema in context/client-schema, `--client` of every command and of the hooks,
 * and the `groundwork` launcher, which must run on old Node with nothing but built-ins).
 *
 * @example
 * parseClient('claude-code@2.1.332') // { ok: true, client: { name: 'claude-code', version: '2.1.332' } }
 * parseClient('vim').ok               // false
 */
export const CLIENT_NAMES = ['none', 'codex', 'claude-code', 'gemini-cli', 'copilot', 'cursor'] as const;
export type ClientName = (typeof CLIENT_NAMES)[number];

/** How people call each client, for reasons and views. */
export const CLIENT_TITLES: Readonly<Record<ClientName, string>> = {
  none: 'a host that loads nothing itself',
  codex: 'Codex',
  'claude-code': 'Claude Code',
  'gemini-cli': 'Gemini CLI',
  copilot: 'Copilot',
  cursor: 'Cursor',
};

/** The hosts of a client that load differently; the client named alone is any of them. */
export const CLIENT_VARIANTS: Readonly<Partial<Record<ClientName, readonly string[]>>> = { copilot: ['vscode', 'cli'] };

export interface ClientRef {
  name: ClientName;
  /** One of the client's `CLIENT_VARIANTS`; absent: any of them. */
  variant?: string;
  /** The client's version as the host named it; absent: the version its profile was checked for. */
  version?: string;
}

export const NO_CLIENT: ClientRef = { name: 'none' };

/** `2.1.332`, `0.171.0`, `1.0.0-beta.2`: numbers first, so versions compare. */
const VERSION = /^[0-9]{1,9}(?:\.[0-9]{1,9}){0,3}(?:[-+][0-9A-Za-z.-]{1,40})?$/;

export const CLIENT_RULE = `one of ${CLIENT_NAMES.join(', ')} (copilot:vscode, copilot:cli for one Copilot host), optionally with @version (e.g. claude-code@2.1.332)`;

export type ParsedClient = { ok: true; client: ClientRef } | { ok: false; reason: string };

export function parseClient(text: string): ParsedClient {
  const at = text.indexOf('@');
  const named = (at < 0 ? text : text.slice(0, at)).trim().toLowerCase();
  const version = at < 0 ? undefined : text.slice(at + 1).trim();
  const colon = named.indexOf(':');
  const name = colon < 0 ? named : named.slice(0, colon);
  const variant = colon < 0 ? undefined : named.slice(colon + 1);
  if (!(CLIENT_NAMES as readonly string[]).includes(name)) return { ok: false, reason: `unknown client ${JSON.stringify(named.slice(0, 40))}: must be ${CLIENT_RULE}` };
  const variants = CLIENT_VARIANTS[name as ClientName] ?? [];
  if (variant !== undefined && !variants.includes(variant)) {
    const known = variants.length > 0 ? `one of ${variants.map((v) => `${name}:${v}`).join(', ')}` : `${name} has no hosts to choose`;
    return { ok: false, reason: `unknown client ${JSON.stringify(named.slice(0, 40))}: ${known}` };
  }
  if (version !== undefined && !VERSION.test(version)) return { ok: false, reason: `client version ${JSON.stringify(version.slice(0, 40))} is not a version number such as 2.1.332` };
  return { ok: true, client: { name: name as ClientName, ...(variant === undefined ? {} : { variant }), ...(version === undefined ? {} : { version }) } };
}

/** `claude-code@2.1.332`, `copilot:cli`, or the name alone. */
export function clientLabel(client: ClientRef): string {
  const named = client.variant === undefined ? client.name : `${client.name}:${client.variant}`;
  return client.version === undefined ? named : `${named}@${client.version}`;
}

/** `Claude Code 2.1.332`, `Copilot (cli)`. */
export function clientTitle(client: ClientRef): string {
  const title = CLIENT_TITLES[client.name];
  return `${title}${client.variant === undefined ? '' : ` (${client.variant})`}${client.version === undefined ? '' : ` ${client.version}`}`;
}

/** The client a stored label names; a label stored by an older version that no longer parses is `none`. */
export function clientOf(label: string | undefined): ClientRef {
  if (label === undefined) return NO_CLIENT;
  const parsed = parseClient(label);
  return parsed.ok ? parsed.client : NO_CLIENT;
}

/**
 * @module http/mcp-origin
 * Which browser origins may call `/mcp` (the MCP security guidance against DNS rebinding): this
 * service's own (`PUBLIC_URL`) and those listed in `MCP_ALLOWED_ORIGINS`. A request without an
 * `Origin` header is not a browser's and passes. Asked before any token is looked at, by the
 * route (routes/mcp) and by the OAuth gate in front of it (auth/api-gate), so a page on a foreign
 * origin learns nothing about tokens either way.
 */
import type { Config } from '../env.ts';

export function mcpOriginAllowed(config: Pick<Config, 'PUBLIC_URL' | 'MCP_ALLOWED_ORIGINS'>, origin: string | null | undefined): boolean {
  if (origin === undefined || origin === null) return true;
  return origin === config.PUBLIC_URL || config.MCP_ALLOWED_ORIGINS.includes(origin);
}

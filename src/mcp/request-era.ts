/**
 * @module mcp/request-era
 * Which protocol a request speaks, from the request alone. A 2026-07-28 ("modern") request names
 * its version and the client's capabilities in `_meta` (`io.modelcontextprotocol/protocolVersion`
 * and `/clientCapabilities`, both required; `/clientInfo` optional); one without them is legacy,
 * served as the version `initialize` agreed (2026-07-28 "Versioning and Compatibility": "A request
 * carrying modern per-request `_meta` is served statelessly ... An `initialize` request selects
 * legacy semantics"). `server/discover` exists only in the modern era, so it must carry `_meta`.
 *
 * Refusals follow the base protocol: a modern request missing a required field is -32602
 * ("A request missing any required field is malformed"), a version this server does not speak is
 * -32022 listing the ones it does. Over HTTP the header checks of mcp/http-headers come first.
 */
import { clientInfoOf, type ClientInfo } from './call-context.ts';
import { isLegacyVersion, isModernVersion, isRecord, PROTOCOL_VERSIONS, RPC, RpcError } from './json-rpc.ts';

export const META = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
} as const;

export type RequestEra = { era: 'modern'; version: string; client?: ClientInfo; capabilities: Record<string, unknown> } | { era: 'legacy' };

/** The version a request's `_meta` names, if it names one (whatever it is). */
export function metaVersion(params: Record<string, unknown> | undefined): unknown {
  const meta = params?.['_meta'];
  return isRecord(meta) ? meta[META.protocolVersion] : undefined;
}

/** Throws the RpcError the request is to be answered with when its `_meta` is not usable. */
export function requestEra(method: string, params: Record<string, unknown> | undefined): RequestEra {
  const meta = params?.['_meta'];
  const version = metaVersion(params);
  if (version === undefined && method !== 'server/discover') return { era: 'legacy' };
  // A legacy version in `_meta` is a legacy client naming what it agreed on: served as legacy.
  if (typeof version === 'string' && isLegacyVersion(version)) return { era: 'legacy' };
  if (typeof version !== 'string') throw missing(META.protocolVersion);
  if (!isModernVersion(version)) throw unsupportedVersion(version);
  const capabilities = isRecord(meta) ? meta[META.clientCapabilities] : undefined;
  if (!isRecord(capabilities)) throw missing(META.clientCapabilities);
  const client = isRecord(meta) ? clientInfoOf(meta[META.clientInfo]) : undefined;
  return { era: 'modern', version, capabilities, ...(client ? { client } : {}) };
}

export function unsupportedVersion(requested: string): RpcError {
  return new RpcError(RPC.unsupportedVersion, `Unsupported protocol version ${requested.slice(0, 40)}`, { supported: [...PROTOCOL_VERSIONS], requested: requested.slice(0, 100) });
}

function missing(key: string): RpcError {
  return new RpcError(RPC.invalidParams, `Invalid params: params._meta["${key}"] is required`);
}

/**
 * @module mcp/http-headers
 * The request metadata headers of MCP's Streamable HTTP transport, checked against the body they
 * mirror (2026-07-28 "Streamable HTTP", Request Metadata and Server Validation):
 *
 * - `MCP-Protocol-Version` names the version; a 2026-07-28 request's header must equal its
 *   `_meta` version, a legacy request's may not contradict it. A version this server does not
 *   speak is -32022 listing those it does. Without the header a request is legacy (the transport
 *   lets a server take it as 2025-03-26), unless its `_meta` claims 2026-07-28: then the header is
 *   missing.
 * - On a 2026-07-28 request `Mcp-Method` must equal the body's method, and `Mcp-Name` its
 *   `params.name` (tools/call, prompts/get) or `params.uri` (resources/read), decoded first when
 *   sent in the `=?base64?…?=` form. Missing, malformed or different is -32020 HeaderMismatch.
 *
 * Every refusal is HTTP 400. Header values arrive with surrounding whitespace already removed
 * (the Fetch API strips it, as RFC 9110 §5.5 asks of field parsing).
 */
import { isLegacyVersion, isModernVersion, isRecord, RPC, RpcError, type JsonRpcMessage } from './json-rpc.ts';
import { metaVersion, unsupportedVersion } from './request-era.ts';

/** Which body field `Mcp-Name` mirrors, for the methods that require it. */
const NAMED: Readonly<Record<string, 'name' | 'uri'>> = { 'tools/call': 'name', 'prompts/get': 'name', 'resources/read': 'uri' };

export type HeaderCheck = { ok: true; era: 'modern' | 'legacy' } | { ok: false; error: RpcError };

export function checkMcpHeaders(headers: Headers, message: Exclude<JsonRpcMessage, { kind: 'response' }>): HeaderCheck {
  const header = headers.get('mcp-protocol-version');
  const { method, params } = message.kind === 'request' ? message.request : message.notification;
  const claimed = metaVersion(params);
  const mismatch = (what: string) => ({ ok: false as const, error: new RpcError(RPC.headerMismatch, `Header mismatch: ${what}`) });

  if (header === null) {
    if (typeof claimed === 'string' && isModernVersion(claimed)) return mismatch('MCP-Protocol-Version is required');
    return { ok: true, era: 'legacy' };
  }
  if (claimed !== undefined && claimed !== header) return mismatch(`MCP-Protocol-Version ${quote(header)} is not the _meta version ${quote(String(claimed))}`);
  if (isLegacyVersion(header)) return { ok: true, era: 'legacy' };
  if (!isModernVersion(header)) return { ok: false, error: unsupportedVersion(header) };
  // 2026-07-28 defines no header rules for a notification POST.
  if (message.kind === 'notification') return { ok: true, era: 'modern' };

  const methodHeader = headers.get('mcp-method');
  if (methodHeader !== method) return mismatch(`Mcp-Method ${methodHeader === null ? 'is required' : `${quote(methodHeader)} is not the method ${quote(method)}`}`);
  const field = NAMED[method];
  if (field === undefined) return { ok: true, era: 'modern' };
  const value = isRecord(params) ? params[field] : undefined;
  const nameHeader = headers.get('mcp-name');
  if (typeof value !== 'string') return { ok: true, era: 'modern' };
  const decoded = nameHeader === null ? undefined : decodeHeaderValue(nameHeader);
  if (decoded !== value) return mismatch(`Mcp-Name ${nameHeader === null ? 'is required' : `${quote(decoded ?? nameHeader)} is not params.${field} ${quote(value)}`}`);
  return { ok: true, era: 'modern' };
}

/** A header value, decoded when it uses the Base64 sentinel form; undefined when that form is broken. */
export function decodeHeaderValue(value: string): string | undefined {
  const sentinel = /^=\?base64\?(.*)\?=$/.exec(value);
  if (!sentinel) return value;
  const encoded = sentinel[1] ?? '';
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(encoded) || encoded.length % 4 !== 0) return undefined;
  try {
    const binary = atob(encoded);
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(Uint8Array.from(binary, (char) => char.charCodeAt(0)));
  } catch {
    return undefined;
  }
}

const quote = (text: string) => JSON.stringify(text.slice(0, 200));

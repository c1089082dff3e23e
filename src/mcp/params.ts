/**
 * @module mcp/params
 * A method's params checked with its zod schema: what does not fit is -32602 naming the field.
 */
import type * as z from 'zod';
import { describeIssues } from '../context/zod-issues.ts';
import { RPC, RpcError } from './json-rpc.ts';

export function paramsOf<S extends z.ZodType>(schema: S, params: unknown): z.output<S> {
  const parsed = schema.safeParse(params ?? {});
  if (!parsed.success) throw new RpcError(RPC.invalidParams, `Invalid params: ${describeIssues(parsed.error, 'params')}`);
  return parsed.data;
}

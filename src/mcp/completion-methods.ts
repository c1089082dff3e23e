/**
 * @module mcp/completion-methods
 * `completion/complete` for the resource templates' arguments (2026-07-28 "Completion"): a task id
 * from the caller's recent ready tasks, a turn of that task, and a path among the files it read,
 * each matched by prefix, at most 100 values (the specification's cap) with the total and whether
 * there are more. The other arguments of a template come from `context.arguments`; without a task
 * id there is nothing to complete a turn or path of, which is an empty answer, not an error.
 * There are no prompts, so a prompt reference is -32602 as for an unknown prompt.
 */
import * as z from 'zod';
import { once } from '../lib/once.ts';
import type { GroundworkBackend } from './backend.ts';
import { RPC, RpcError } from './json-rpc.ts';
import type { Method } from './methods.ts';
import { paramsOf } from './params.ts';
import { RESOURCE_TEMPLATES } from './resource-methods.ts';
import { SOURCE_TEMPLATE, TURN_TEMPLATE } from './uris.ts';

const MAX_VALUES = 100;
const TASK_ID = /^[0-9a-f]{64}$/;

const completeParams = once(() =>
  z.looseObject({
    ref: z.looseObject({ type: z.string(), uri: z.string().optional(), name: z.string().optional() }),
    argument: z.looseObject({ name: z.string(), value: z.string() }),
    context: z.looseObject({ arguments: z.record(z.string(), z.string()).optional() }).optional(),
  }),
);

export function completionMethods(backend: GroundworkBackend): Record<string, Method> {
  return {
    'completion/complete': async (params) => {
      const { ref, argument, context } = paramsOf(completeParams(), params);
      const template = ref.uri;
      if (ref.type !== 'ref/resource' || (template !== TURN_TEMPLATE.template && template !== SOURCE_TEMPLATE.template)) {
        throw new RpcError(RPC.invalidParams, `Invalid params: ref must be a resource template of this server's (${RESOURCE_TEMPLATES.map((one) => one.uriTemplate).join(', ')}); it has no prompts`);
      }
      const taskId = context?.arguments?.['taskId'];
      let candidates: string[];
      if (argument.name === 'taskId') candidates = (await backend.listTurns()).map((resource) => TURN_TEMPLATE.parse(resource.uri)).flatMap((parsed) => (parsed.ok ? [parsed.taskId] : []));
      else if (argument.name === 'turn' && template === TURN_TEMPLATE.template) candidates = taskId && TASK_ID.test(taskId) ? (await backend.taskTurns(taskId)).map(String) : [];
      else if (argument.name === 'path' && template === SOURCE_TEMPLATE.template) candidates = taskId && TASK_ID.test(taskId) ? await backend.taskSourcePaths(taskId) : [];
      else throw new RpcError(RPC.invalidParams, `Invalid params: argument.name ${JSON.stringify(argument.name.slice(0, 40))} is not one of ${template}'s`);
      const values = [...new Set(candidates)].filter((value) => value.startsWith(argument.value));
      return { completion: { values: values.slice(0, MAX_VALUES), total: values.length, hasMore: values.length > MAX_VALUES } };
    },
  };
}

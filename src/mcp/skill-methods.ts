/**
 * @module mcp/skill-methods
 * The skills extension's methods (`io.modelcontextprotocol/skills`, ext-skills
 * specification/stable/skills.mdx): `skills/list` pages through the skills served, each entry
 * whole (frontmatter and every file with its digest and size), and `skills/get` answers the entry
 * of one skill by the URI of its SKILL.md, or -32602 when no skill is served there. The files
 * themselves are read with `resources/read` (mcp/resource-methods). `resources/directory/read` is
 * not offered (`directoryRead` is not declared): every entry is complete, so a client learns a
 * directory's files from it.
 *
 * Why a skill of the index is not served, and the index's own validation warnings, travel in the
 * listing's `_meta.warnings`, as the skills index shows them in a task's context.
 */
import * as z from 'zod';
import { once } from '../lib/once.ts';
import type { GroundworkBackend } from './backend.ts';
import { cacheHints } from './cache-hints.ts';
import { RPC, RpcError } from './json-rpc.ts';
import type { Method } from './methods.ts';
import { paramsOf } from './params.ts';

export const SKILLS_EXTENSION = 'io.modelcontextprotocol/skills';

const listParams = once(() => z.looseObject({ cursor: z.string().optional() }));
const getParams = once(() => z.looseObject({ uri: z.string() }));

export function skillMethods(backend: GroundworkBackend): Record<string, Method> {
  return {
    'skills/list': async (params, call) => {
      const { cursor } = paramsOf(listParams(), params);
      const page = await backend.listSkills(cursor);
      if (!page.ok) throw new RpcError(RPC.invalidParams, `Invalid params: ${page.message}`);
      return {
        skills: page.skills,
        ...(page.nextCursor === undefined ? {} : { nextCursor: page.nextCursor }),
        ...(page.warnings.length === 0 ? {} : { _meta: { warnings: page.warnings } }),
        ...cacheHints(call, page.ttlMs, 'private'),
      };
    },
    'skills/get': async (params, call) => {
      const { uri } = paramsOf(getParams(), params);
      const found = await backend.getSkill(uri);
      if (!found.ok) throw found.failed ? new RpcError(RPC.internalError, found.message) : new RpcError(RPC.invalidParams, `No skill is served at ${uri.slice(0, 200)}: ${found.message}`);
      return { skill: found.skill, ...cacheHints(call, found.ttlMs, 'private') };
    },
  };
}

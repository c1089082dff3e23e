/**
 * @module providers/skills/config
 * The skills provider's host configuration and the root patterns it names.
 *
 * A root is a directory pattern from the repository root whose segments are literal names,
 * `*` (exactly one directory) or `**` (any number of directories, bounded by `maxDepth`). Every
 * directory a root matches that holds a `SKILL.md` is a skill, e.g. `.agents/skills/*` or
 * `tools/**`. Partial globs such as `skill-*` are refused: they would need a
 * matcher whose behaviour a newcomer has to guess.
 */
import * as z from 'zod';
import { deepFreeze } from '../../lib/deep-freeze.ts';
import { lazySchema } from '../../lib/lazy-schema.ts';
import { normalisePath } from '../../sources/paths.ts';

export type RootSegment = { kind: 'literal'; name: string } | { kind: 'any' } | { kind: 'deep' };

export interface RootPattern {
  /** The pattern as configured, for warnings. */
  text: string;
  /** Literal leading directories, listed directly; `''` is the repository root. */
  prefix: string;
  /** Segments after the prefix, starting at its first wildcard. */
  rest: RootSegment[];
  /** A nested root looked up along a chain: its absence is not reported. */
  optional?: boolean;
}

export type ParsedRoot = { ok: true; root: RootPattern } | { ok: false; reason: string };

export function parseRoot(text: string): ParsedRoot {
  const normal = normalisePath(text);
  if (!normal.ok) return { ok: false, reason: normal.reason };
  const segments = normal.path === '' ? [] : normal.path.split('/');
  const partial = segments.find((segment) => segment.includes('*') && segment !== '*' && segment !== '**');
  if (partial !== undefined) return { ok: false, reason: `segment "${partial}" mixes * with a name; use * or ** alone` };
  const firstWildcard = segments.findIndex((segment) => segment === '*' || segment === '**');
  const cut = firstWildcard < 0 ? segments.length : firstWildcard;
  const rest = segments.slice(cut).map((name): RootSegment => (name === '*' ? { kind: 'any' } : name === '**' ? { kind: 'deep' } : { kind: 'literal', name }));
  return { ok: true, root: { text, prefix: segments.slice(0, cut).join('/'), rest } };
}

const RootSchema = lazySchema(() => z
  .string()
  .min(1)
  .max(256)
  .superRefine((text, ctx) => {
    const parsed = parseRoot(text);
    if (!parsed.ok) ctx.addIssue({ code: 'custom', message: parsed.reason });
  }));

/** Where the agent ecosystems keep skills; a repository or a deployment can redirect them. */
export const DEFAULT_SKILL_ROOTS = ['.agents/skills/*/', '.claude/skills/*/', '.codex/skills/*/', '.gemini/skills/*/', '.opencode/skills/*/', 'skills/*/'];

/** Where a sub-project keeps its own skills, as Claude Code discovers nested `.claude/skills/`. */
export const NESTED_SKILL_ROOTS = ['.agents/skills/*/', '.claude/skills/*/'];

/** What a run gets when no settings layer sets a field (see context/provider `defaults`), in the schema's order; the schema's defaults are these. */
export const SKILLS_DEFAULTS = deepFreeze({
  roots: [...DEFAULT_SKILL_ROOTS],
  maxDepth: 4,
  maxDirectories: 200,
  maxSkillBytes: 65_536,
  maxSelectedTokens: 8_000,
  maxIndexTokens: 6_000,
  minIndexTokens: 1_000,
  nestedRoots: [...NESTED_SKILL_ROOTS],
  maxChainDirectories: 64,
  maxBundledFiles: 40,
  maxBundledDepth: 3,
});

export const SkillsConfigSchema = lazySchema(() => z.object({
  /** Directory patterns whose matches hold a SKILL.md. */
  roots: z.array(RootSchema).min(1).max(16).default(SKILLS_DEFAULTS.roots),
  /** Directory levels discovery may descend below a root's literal prefix. */
  maxDepth: z.number().int().min(0).max(16).default(SKILLS_DEFAULTS.maxDepth),
  /** Directories listed in one run, over all roots together. */
  maxDirectories: z.number().int().min(1).max(10_000).default(SKILLS_DEFAULTS.maxDirectories),
  /** Bytes read of one SKILL.md; frontmatter must close inside them. */
  maxSkillBytes: z.number().int().min(256).max(1_048_576).default(SKILLS_DEFAULTS.maxSkillBytes),
  /**
   * Tokens one selected skill may take, instructions and file listing together: room for a skill
   * written to the Agent Skills guidance (SKILL.md under 500 lines, about 5,000 tokens).
   */
  maxSelectedTokens: z.number().int().min(1).default(SKILLS_DEFAULTS.maxSelectedTokens),
  /** Tokens the index may take at most, whatever is left of the budget. */
  maxIndexTokens: z.number().int().min(1).default(SKILLS_DEFAULTS.maxIndexTokens),
  /** Tokens kept for the index however many skills are selected (capped at half the budget). */
  minIndexTokens: z.number().int().min(0).default(SKILLS_DEFAULTS.minIndexTokens),
  /**
   * Skill roots looked up in every directory on the way from the repository root to the working
   * directory and to each focus path (a sub-project's own skills), relative to that directory.
   * The root directory itself is left to `roots`; `[]` looks up none.
   */
  nestedRoots: z
    .array(RootSchema.refine((text) => nestedHead(text) !== '', 'must start with a directory name, e.g. .agents/skills/*/'))
    .max(8)
    .default(SKILLS_DEFAULTS.nestedRoots),
  /** Directories of those chains listed to find nested roots, for the working directory's chain and for the focus paths' each. */
  maxChainDirectories: z.number().int().min(0).max(1_000).default(SKILLS_DEFAULTS.maxChainDirectories),
  /** Files listed with a selected skill (and directories listed to find them); 0 lists none. */
  maxBundledFiles: z.number().int().min(0).max(200).default(SKILLS_DEFAULTS.maxBundledFiles),
  /** Levels below a selected skill's directory whose files are listed. */
  maxBundledDepth: z.number().int().min(1).max(8).default(SKILLS_DEFAULTS.maxBundledDepth),
}));
export type SkillsConfig = z.output<typeof SkillsConfigSchema>;

/** Roots of a config that passed the schema, so parsing cannot fail here. */
export function configuredRoots(config: SkillsConfig): RootPattern[] {
  return config.roots.flatMap((text) => {
    const parsed = parseRoot(text);
    return parsed.ok ? [parsed.root] : [];
  });
}

/**
 * The nested roots of `config` placed in directory `dir` (not the root): `packages/api` and
 * `.agents/skills/*\/` give `packages/api/.agents/skills/*\/`; with `heads`, only those whose
 * first directory is among them. Marked optional: a sub-project without skills is the common
 * case, not a mistake to warn about.
 */
export function nestedRootsIn(config: SkillsConfig, dir: string, heads?: ReadonlySet<string>): RootPattern[] {
  return config.nestedRoots.flatMap((text) => {
    if (heads && !heads.has(nestedHead(text))) return [];
    const parsed = parseRoot(`${dir}/${text}`);
    return parsed.ok ? [{ ...parsed.root, optional: true }] : [];
  });
}

/** The first directory name of each nested root (`.agents`, `.claude`): what a chain directory must hold for a root to be there. */
export function nestedRootHeads(config: SkillsConfig): Set<string> {
  return new Set(config.nestedRoots.map(nestedHead).filter((head) => head !== ''));
}

/** A root's first literal directory name; `''` when it starts with a wildcard. */
function nestedHead(text: string): string {
  const parsed = parseRoot(text);
  return parsed.ok ? (parsed.root.prefix.split('/')[0] ?? '') : '';
}

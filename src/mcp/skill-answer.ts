/**
 * @module mcp/skill-answer
 * A skill read on request, as the model reads it: where it lives (path@commit), its SKILL.md
 * whole, and the files bundled beside it, which the model reads next only when the skill's
 * instructions call for them.
 */
import type { SkillRead } from '../providers/skills/read-skill.ts';
import type { ToolAnswer } from './backend.ts';

/** A skill as `readSkill` answers it, whether read here (the local server) or by the Task object. */
export type SkillView = Omit<Extract<SkillRead, { ok: true }>, 'ok' | 'filesText'> & { filesText?: string | undefined };

export function skillAnswer(taskId: string, skill: SkillView): ToolAnswer {
  const lines = [`Skill ${skill.name} (${skill.path}@${skill.commit}, blob ${skill.blob}):`, '', skill.text];
  if (skill.truncated) lines.push('', `(SKILL.md is longer than what was read; the rest was cut.)`);
  if (skill.filesText) lines.push('', skill.filesText);
  const { filesText: _text, ...structured } = skill;
  return { text: lines.join('\n'), structured: { taskId, ...structured } };
}

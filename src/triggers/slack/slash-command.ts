/**
 * @module triggers/slack/slash-command
 * The fields of a slash command's form body that Groundwork reads, as Slack posts them.
 */
import * as z from 'zod';
import { lazySchema } from '../../lib/lazy-schema.ts';

export const SlashCommandSchema = lazySchema(() => z.object({
  team_id: z.string().min(1),
  user_id: z.string().min(1),
  text: z.string().default(''),
  response_url: z.url({ protocol: /^https$/ }),
  trigger_id: z.string().min(1).optional(),
}));

/**
 * @module context/mailbox
 * Follow-ups that amend a task after it started: a person (through the API or a pull request
 * comment) or the host (a push to the pull request) adds a message, and the model reads it on
 * its next turn inside `<groundwork-mailbox from="…">`. The text is the sender's; it is a
 * section like every other (escaped, with a boundary its text does not contain), so it cannot
 * close its wrapper or forge a host section.
 *
 * @example
 * renderMailbox('@octocat', 'Also cover the logout path.')
 * // '<groundwork-mailbox boundary="…" from="@octocat">\nAlso cover the logout path.\n</groundwork-mailbox boundary="…">'
 */
import * as z from 'zod';
import { lazySchema } from '../lib/lazy-schema.ts';
import { renderSection } from './section.ts';

/** A follow-up is a message, not a document: as long as a task request may be. */
export const MAX_MAILBOX_TEXT_CHARS = 20_000;
/** Follow-ups one task takes; past this, start a new task. */
export const MAX_MAILBOX_ITEMS = 100;

/** Who sent it: a name or handle as the host knows them, shown to the model. */
export const MailboxSenderSchema = lazySchema(() => z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(100, 'at most 100 characters')
  .regex(/^[^\p{Cc}]+$/u, 'no control characters'));

export function renderMailbox(from: string, text: string): string {
  return renderSection('groundwork-mailbox', [['from', from]], text.replace(/\s+$/, ''));
}

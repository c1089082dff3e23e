/**
 * @module context/provider-selection
 * Which providers of the registry an agent runs: `all`, a list of names, or all except some.
 * An exclusion keeps an agent's set open to providers added later (it gets them unless it says
 * otherwise), where a list would have to be edited for each new provider.
 *
 * @example
 * selects({ except: ['memory'] }, 'rules')  // true
 * selects({ except: ['memory'] }, 'memory') // false
 */
import * as z from 'zod';
import { lazySchema } from '../lib/lazy-schema.ts';

export const ProviderSelectionSchema = lazySchema(() => z.union([z.literal('all'), z.array(z.string()), z.strictObject({ except: z.array(z.string()) })]));
export type ProviderSelection = z.infer<typeof ProviderSelectionSchema>;

export function selects(selection: ProviderSelection, name: string): boolean {
  if (selection === 'all') return true;
  if (Array.isArray(selection)) return selection.includes(name);
  return !selection.except.includes(name);
}

/**
 * @module clients/facts/none
 * The one fact of `none` (clients/none): a host that loads nothing itself.
 */
import type { Fact } from '../profile.ts';

export const NONE_FACTS: readonly Fact[] = [{ id: 'none.nothing', says: 'Loads no instruction file by itself: Groundwork gives every rule that applies.', source: 'Groundwork (the default client)', checked: '-', confidence: 'code' }];

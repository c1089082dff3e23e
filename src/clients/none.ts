/**
 * @module clients/none
 * A host that loads no instruction file itself (a model API call, a script, an agent Groundwork
 * does not know): everything the rules provider finds and applies is given by Groundwork. The
 * default, and Groundwork's behaviour before clients were named.
 */
import type { ClientProfile } from './profile.ts';

export const NONE: ClientProfile = {
  name: 'none',
  title: 'a host that loads nothing itself',
  checked: '-',
  mcpNames: [],
  directoryNames: [],
  facts: [{ id: 'none.nothing', says: 'Loads no instruction file by itself: Groundwork gives every rule that applies.', source: 'Groundwork (the default client)', checked: '-', confidence: 'code' }],
  loads: (files) => files.map(() => ({ load: 'never', why: 'nothing but Groundwork gives it rules', fact: 'none.nothing' })),
};

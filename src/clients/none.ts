/**
 * @module clients/none
 * A host that loads no instruction file itself (a model API call, a script, an agent Groundwork
 * does not know): everything the rules provider finds and applies is given by Groundwork. The
 * default, and Groundwork's behaviour before clients were named.
 */
import { never, type ClientProfile } from './profile.ts';

export const NONE: ClientProfile = {
  name: 'none',
  checked: '-',
  directoryNames: [],
  loads: (files) => files.map(() => (never('nothing but Groundwork gives it rules', 'none.nothing'))),
  imports: () => never('nothing but Groundwork gives it rules', 'none.nothing'),
};

import type { TaskView } from '../../src/context/provider.ts';
import { COMMIT } from './providers.ts';

export function taskView(overrides: Partial<TaskView> = {}): TaskView {
  return {
    request: 'Add a square root button.',
    origin: 'cli',
    repository: 'file:///repo',
    commit: COMMIT,
    cwd: '',
    focusPaths: [],
    trusted: true,
    skills: [],
    agent: 'entry',
    ...overrides,
  };
}

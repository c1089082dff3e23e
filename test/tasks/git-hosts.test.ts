import { describe, expect, it } from 'vitest';
import { gitHostAllowed } from '../../src/tasks/task-request.ts';

describe('git host allowlist', () => {
  it('allows any host when the list is empty, else exact hosts and *.suffix only', () => {
    expect(gitHostAllowed('https://anything.test/x.git', [])).toBe(true);
    const allowed = ['git.example.com', '*.corp.test'];
    expect(gitHostAllowed('https://git.example.com/a.git', allowed)).toBe(true);
    expect(gitHostAllowed('https://GIT.example.com/a.git', allowed)).toBe(true);
    expect(gitHostAllowed('https://src.corp.test/a.git', allowed)).toBe(true);
    expect(gitHostAllowed('https://corp.test/a.git', allowed)).toBe(false);
    expect(gitHostAllowed('https://evilcorp.test/a.git', allowed)).toBe(false);
    expect(gitHostAllowed('https://git.example.com.evil.test/a.git', allowed)).toBe(false);
    expect(gitHostAllowed('http://169.254.169.254/latest', allowed)).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { matchesPath } from '../../src/http/path-pattern.ts';

describe('matchesPath', () => {
  it.each([
    ['/mcp', '/mcp', true],
    ['/mcp', '/mcp/', false],
    ['/mcp', '/mcpx', false],
    ['/tasks/:id/view', '/tasks/abc/view', true],
    ['/tasks/:id/view', '/tasks//view', false],
    ['/tasks/:id/view', '/tasks/abc/view/more', false],
    ['/tasks/:id/view', '/tasks/a%2Fb/view', true],
    ['/tasks/*', '/tasks/abc', true],
    ['/tasks/*', '/tasks/abc/turns/0', true],
    ['/tasks/*', '/tasks', false],
    ['/tasks/*', '/tasks/', false],
    ['/tasks/*', '/tasksx/abc', false],
    ['/knowledge', '/knowledge', true],
    ['/knowledge', '/', false],
  ])('%s against %s: %s', (pattern, path, expected) => {
    expect(matchesPath(pattern, path)).toBe(expected);
  });
});

import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { ConfigError, getConfig } from '../../src/env.ts';

// Each Durable Object instance gets an Env object of its own; these stand in for them.
const envWith = (vars: Record<string, string | undefined>): Env => ({ ...env, ...vars }) as Env;

describe('getConfig across Env objects', () => {
  it('parses once for Env objects that hold the same values', () => {
    const first = getConfig(envWith({ TASK_RETENTION_DAYS: '12' }));
    const second = getConfig(envWith({ TASK_RETENTION_DAYS: '12' }));
    expect(second).toBe(first);
    expect(second.TASK_RETENTION_DAYS).toBe(12);
  });

  it('parses again when any value differs, and reads the new value', () => {
    const before = getConfig(envWith({ TASK_RETENTION_DAYS: '12' }));
    const after = getConfig(envWith({ TASK_RETENTION_DAYS: '13' }));
    expect(after).not.toBe(before);
    expect(after.TASK_RETENTION_DAYS).toBe(13);
    const secret = getConfig(envWith({ TASK_RETENTION_DAYS: '13', VIEW_LINK_SECRET: 'a-new-secret-for-links' }));
    expect(secret.VIEW_LINK_SECRET).toBe('a-new-secret-for-links');
  });

  it('never serves an invalid Env the last valid configuration', () => {
    getConfig(envWith({ TASK_RETENTION_DAYS: '12' }));
    expect(() => getConfig(envWith({ TASK_RETENTION_DAYS: 'twelve' }))).toThrow(ConfigError);
    // The valid values still parse (and are served) after the refusal.
    expect(getConfig(envWith({ TASK_RETENTION_DAYS: '12' })).TASK_RETENTION_DAYS).toBe(12);
  });

  it('tells a variable that was removed from one set to its default', () => {
    expect(getConfig(envWith({ GITHUB_READS: 'rest' })).GITHUB_READS).toBe('rest');
    expect(getConfig(envWith({ GITHUB_READS: undefined })).GITHUB_READS).toBe('graphql');
  });
});

import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { AssembledTurnSchema } from '../../src/context/turn-schema.ts';
import { BUILT_CLI } from './cli-support.ts';

const DIST = dirname(BUILT_CLI);
const BOOT_TIMEOUT = 120_000;

describe('npm run demo', () => {
  it('prints the example task through groundwork context (memory capability-gated: no knowledge store) and deletes its repository', async () => {
    const child = spawn(process.execPath, [join(DIST, 'demo.js'), '--json'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code, stderr).toBe(0);
    const dir = /^demo repository: (\S+) \(main at 08227a5880f18a4190d49097d4c0fcede328b63e; deleted when done\)$/m.exec(stderr)?.[1];
    expect(dir).toMatch(/groundwork-demo-/);
    expect(existsSync(dir ?? '')).toBe(false);
    const turn = AssembledTurnSchema.parse(JSON.parse(stdout));
    expect(turn.providers.find((p) => p.name === 'memory')).toMatchObject({ outcome: 'capability-gated', reason: 'knowledge:read is not available for this task' });
  });
});

describe('npm start', () => {
  it(
    'prints what the walkthrough uses (URL, token, the file:// repository, an export line), accepts tasks on that repository, and deletes it when stopped',
    async () => {
      const child = spawn(process.execPath, [join(DIST, 'start.js'), '--json'], { stdio: ['ignore', 'pipe', 'pipe'] });
      // A failed assertion must not leave the service (and its example repository) behind.
      onTestFinished(() => {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
      });
      let stdout = '';
      let stderr = '';
      // The turn (stdout) and the banner (stderr) come down two pipes: wait for both to be whole.
      const banner = new Promise<void>((resolve, reject) => {
        const whole = () => stderr.includes('Press Ctrl-C to stop.') && stdout.endsWith('}\n');
        child.stdout.on('data', (chunk: Buffer) => {
          stdout += chunk.toString();
          if (whole()) resolve();
        });
        child.stderr.on('data', (chunk: Buffer) => {
          stderr += chunk.toString();
          if (whole()) resolve();
        });
        child.on('exit', () => reject(new Error(`exited before serving: ${stderr}`)));
      });
      await banner;
      const dir = /^example repository: (\S+) \(main at [0-9a-f]{40}; deleted when the service stops\)$/m.exec(stderr)?.[1] ?? '';
      const exported = /^ {2}export GROUNDWORK_URL=(\S+) GROUNDWORK_TOKEN=(\S+) GROUNDWORK_REPO=(\S+) GROUNDWORK_TASK=([0-9a-f]{64})$/m.exec(stderr);
      const [, url = '', token = '', repo = '', task = ''] = exported ?? [];
      expect(stderr).toContain(`Groundwork is running at ${url}\n  token: ${token}   (tenant "local")\n  repository: ${repo}   (`);
      expect(repo).toBe(`file://${dir}`);
      // The turn printed is the task the export line names, on that repository; memory runs here.
      const turn = AssembledTurnSchema.parse(JSON.parse(stdout));
      expect(turn.repository).toBe(repo);
      expect(turn.providers.find((p) => p.name === 'memory')?.outcome).toBe('empty');
      const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
      const read = await fetch(`${url}/tasks/${task}`, { headers });
      expect(read.status).toBe(200);
      const created = await fetch(`${url}/tasks`, { method: 'POST', headers, body: JSON.stringify({ repo, request: 'Add a modulo operation.', cwd: 'src' }) });
      expect(created.status).toBe(202);
      const other = await fetch(`${url}/tasks`, { method: 'POST', headers, body: JSON.stringify({ repo: 'file:///somewhere/else', request: 'x' }) });
      expect(other.status).toBe(400);
      // The OpenAPI document, from the bundle's assets, without a token.
      const openapi = await fetch(`${url}/openapi.json`);
      expect(openapi.status).toBe(200);
      expect(await openapi.json()).toEqual(JSON.parse(readFileSync(join(DIST, '..', 'docs', 'openapi.json'), 'utf8')));

      child.kill('SIGINT');
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect(code).toBe(0);
      expect(stderr).toContain(`deleted the example repository ${dir}\n`);
      expect(existsSync(dir)).toBe(false);
    },
    BOOT_TIMEOUT,
  );
});

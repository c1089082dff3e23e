/**
 * A usage error prints its one line and how to get help, never the whole help after it (which
 * pushed the line that said what was wrong off the screen): every command, through the built bin,
 * exits 2 with exactly those two lines on stderr and nothing on stdout, and the help it names works.
 */
import { execFile } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BUILT_CLI } from './cli-support.ts';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function run(argv: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BUILT_CLI, ...argv], { env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '' } }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
    });
  });
}

const CASES: Array<[string[], string, string]> = [
  [['deploy'], 'groundwork: unknown command "deploy"', 'groundwork --help'],
  [['--nope'], "groundwork: Unknown option '--nope'", 'groundwork context --help'],
  [['context', '--format'], "groundwork: Option '--format <value>' argument missing", 'groundwork context --help'],
  [['check', 'deploy'], 'groundwork check: unknown action "deploy": one of push, report-ci', 'groundwork check --help'],
  [['check', 'push'], 'groundwork check: --since', 'groundwork check --help'],
  [['freshness', '--nope'], 'groundwork freshness:', 'groundwork freshness --help'],
  [['run', '--turns', '0'], 'groundwork run: --turns: must be at least 1', 'groundwork run --help'],
  [['mcp', '--nope'], 'groundwork mcp: unknown option --nope', 'groundwork mcp --help'],
  // The local MCP server's own options: a missing value, a path that is not there, a service without its token.
  [['mcp', '--repo'], 'groundwork mcp: --repo needs a path', 'groundwork mcp --help'],
  [['mcp', '--repo', '/nonexistent/groundwork-repo'], 'groundwork mcp: --repo: there is no /nonexistent/groundwork-repo', 'groundwork mcp --help'],
  [['mcp', '--service', 'ftp://example.test'], 'groundwork mcp: --service: must be an http(s) URL', 'groundwork mcp --help'],
  [['mcp', '--service', 'https://groundwork.example.test'], 'groundwork mcp: --service needs a token: set GROUNDWORK_TOKEN', 'groundwork mcp --help'],
];

describe('a usage error', () => {
  it.each(CASES)('of groundwork %j prints its line and how to get help, and exits 2', async (argv, line, help) => {
    const { code, stdout, stderr } = await run(argv);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    const lines = stderr.split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]?.startsWith(line), stderr).toBe(true);
    expect(lines.slice(1)).toEqual([`Run \`${help}\` for usage.`, '']);
    expect(stderr).not.toContain('Usage:');

    const shown = await run([...help.split(' ').slice(1)]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(/^Usage: groundwork/);
  });

  it('shows an escape sequence typed as a command as text, not acting on it', async () => {
    const { code, stderr } = await run(['\u001b]0;pwned\u0007']);
    expect(code).toBe(2);
    expect(stderr).toBe('groundwork: unknown command "\\u{1b}]0;pwned\\u{7}"\nRun `groundwork --help` for usage.\n');
  });
});

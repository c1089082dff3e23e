/**
 * @module test/support/git-repo-control
 * The Node side of the git server's control endpoints: fresh repositories made on demand, one per
 * test, and commits pushed into them mid-test, so a test can move a branch the Worker reads and
 * no other test sees it. Runs in Node only (the git CLI), inside the global setup.
 */
import { rmSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { cloneBare, createGitRepo, type GitFixture } from './git-fixtures.ts';

/** Files to write (text) or delete (null), by path. */
const FilesSchema = z.record(z.string().min(1), z.string().nullable());
const CreateSchema = z.object({ files: FilesSchema });
const CommitSchema = z.object({ files: FilesSchema, message: z.string().default('change') });

export interface RepoControl {
  /** Answers `POST /_control/repos` and `POST /_control/<name>/commit`; false for other paths. */
  handle(pathname: string, req: IncomingMessage, res: ServerResponse): boolean;
  close(): void;
}

export function repoControl(root: string): RepoControl {
  const work = new Map<string, GitFixture>();
  let next = 0;

  const apply = (repo: GitFixture, files: Record<string, string | null>, message: string): string => {
    for (const [path, content] of Object.entries(files)) {
      if (content === null) repo.git('rm', '--quiet', '-r', '--', path);
      else repo.write(path, content);
    }
    return repo.commitAll(message);
  };

  const answer = (req: IncomingMessage, res: ServerResponse, act: (body: unknown) => unknown): void => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      try {
        const result = act(JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}'));
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(result));
      } catch (error) {
        res.writeHead(400, { 'content-type': 'text/plain' }).end(error instanceof Error ? error.message : String(error));
      }
    });
  };

  return {
    handle(pathname, req, res) {
      if (req.method !== 'POST') return false;
      if (pathname === '/_control/repos') {
        answer(req, res, (body) => {
          const { files } = CreateSchema.parse(body);
          const repo = createGitRepo();
          const head = apply(repo, files, 'initial');
          const name = `fresh-${++next}.git`;
          repo.git('remote', 'add', 'origin', cloneBare(repo, root, name));
          work.set(name, repo);
          return { name, head };
        });
        return true;
      }
      const commit = /^\/_control\/(fresh-\d+\.git)\/commit$/.exec(pathname);
      const repo = commit ? work.get(commit[1] ?? '') : undefined;
      if (!repo) return false;
      answer(req, res, (body) => {
        const { files, message } = CommitSchema.parse(body);
        const head = apply(repo, files, message);
        repo.git('push', '--quiet', 'origin', 'main');
        return { head };
      });
      return true;
    },
    close() {
      for (const repo of work.values()) repo.remove();
      for (const name of work.keys()) rmSync(`${root}/${name}`, { recursive: true, force: true });
    },
  };
}

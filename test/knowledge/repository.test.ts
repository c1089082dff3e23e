import { describe, expect, it } from 'vitest';
import { canonicalRepository } from '../../src/knowledge/repository.ts';

const canonical = (repo: string, api = 'https://api.github.com') => {
  const result = canonicalRepository(repo, api);
  return result.ok ? result.repository : `refused: ${result.reason}`;
};

describe('canonical repository', () => {
  it('names one GitHub repository the same way in every form', () => {
    const forms = [
      'acme/widgets',
      'Acme/Widgets',
      'acme/widgets.git',
      'https://github.com/acme/widgets',
      'https://github.com/acme/widgets.git',
      'https://github.com/acme/widgets/',
      'https://x-access-token:ghs_secret@github.com/Acme/widgets.git',
      'https://GitHub.com/acme/widgets#readme',
    ];
    expect(new Set(forms.map((form) => canonical(form)))).toEqual(new Set(['github:github.com/acme/widgets']));
  });

  it('follows the deployment’s GitHub host, and keeps other hosts and deeper paths apart', () => {
    expect(canonical('acme/widgets', 'https://ghe.example.com/api/v3')).toBe('github:ghe.example.com/acme/widgets');
    expect(canonical('https://ghe.example.com/acme/widgets.git', 'https://ghe.example.com/api/v3')).toBe('github:ghe.example.com/acme/widgets');
    expect(canonical('https://github.com/acme/widgets.git', 'https://ghe.example.com/api/v3')).toBe('https://github.com/acme/widgets');
    expect(canonical('https://github.com/acme/widgets/tree/main')).toBe('https://github.com/acme/widgets/tree/main');
    expect(canonical('http://github.com/acme/widgets')).toBe('http://github.com/acme/widgets');
    expect(canonical('https://user:pw@git.example.com/Team/App.git/')).toBe('https://git.example.com/Team/App');
  });

  it('refuses a git URL that names no repository, without echoing it', () => {
    expect(canonical('https://git.example.com/app?token=secret')).toBe('refused: remote git URL must not have a query string');
  });
});

/**
 * The `file:///` repositories the workers test projects' Worker serves (`LOCAL_REPOSITORIES`, as
 * `groundwork run` sets it), so routes that take a repository can be tested with local names.
 * Nothing listens at their URLs: the tests that use them never read the repository.
 */
export const TEST_LOCAL_REPOSITORIES = {
  'file:///srv/checkouts/one': 'http://127.0.0.1:9/one.git',
  'file:///srv/checkouts/two': 'http://127.0.0.1:9/two.git',
} as const;

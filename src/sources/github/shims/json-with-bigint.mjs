// json-with-bigint for the Worker bundle only (wrangler.toml [alias]). @octokit/request reads
// every GitHub answer with it, so that an integer past 2^53 becomes a BigInt; its reviver makes
// parsing a many-valued answer (a GraphQL read-ahead of 300 skills) about twice as slow as
// JSON.parse. No field Groundwork reads can hold such an integer (ids, sizes and counts are far
// below it), and its schemas take numbers, not BigInts, so the native parse is what it needs.
// Request bodies never hold a BigInt; JSON.stringify would refuse one loudly.
export function JSONParse(text, reviver) {
  return JSON.parse(text, reviver);
}

export function JSONStringify(value, replacer, space) {
  return JSON.stringify(value, replacer, space);
}

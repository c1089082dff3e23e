/**
 * @module sources/github/pages
 * Reading a paginated GitHub list up to a bound: pages of up to 100 (GitHub's largest), only as
 * many as the bound needs, following `Link: rel="next"`. A list cut at the bound says so.
 */

/** GitHub's largest page for list endpoints. */
export const MAX_PER_PAGE = 100;

export interface Page<T> {
  items: T[];
  /** The `link` header of the answer. */
  link: unknown;
  /** How many GitHub says there are in all, when it says (`total_count`). */
  total?: number;
}

/**
 * @example
 * await readPages((page, perPage) => requestPage(page, perPage), 300) // at most 3 requests
 */
export async function readPages<T>(fetchPage: (page: number, perPage: number) => Promise<Page<T>>, limit: number): Promise<{ items: T[]; complete: boolean; total?: number }> {
  const perPage = Math.max(1, Math.min(MAX_PER_PAGE, limit));
  const items: T[] = [];
  for (let page = 1; ; page++) {
    const answer = await fetchPage(page, perPage);
    items.push(...answer.items);
    const next = answer.items.length > 0 && /\brel="next"/.test(String(answer.link ?? ''));
    const beyond = answer.total !== undefined && answer.total > items.length;
    if (items.length >= limit || !next) return { items: items.slice(0, limit), complete: !next && !beyond && items.length <= limit, ...(answer.total !== undefined ? { total: answer.total } : {}) };
  }
}

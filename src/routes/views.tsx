/**
 * @module routes/views
 * The inspector's pages: `GET /tasks/:id/view` (one task; `?freshness=1` also reads back what
 * changed since its pinned commit) and `GET /view` (a tenant's tasks).
 * Thin: decide who is asking, fetch the data, build the page model, render. Every page is sent
 * with a strict CSP (`default-src 'none'`, the stylesheet by nonce, no scripts), no referrer
 * (a signed link never leaks to the sites it links to) and `no-store`.
 *
 * Who may look: an API token (`Authorization: Bearer`, with its tenant's grants), for one task a
 * signed link (`?exp=…&sig=…`), which the task's own object checks, or a person signed in with
 * GitHub (the session cookie, auth/session), who sees what GitHub lets them read (auth/). A link
 * that does not open the task gets a 403 page saying why, never any of the task. Where people can
 * sign in, every page offers "Sign in with GitHub" beside the other ways in, or says who is signed
 * in with a way out.
 */
import type { Context } from 'hono';
import { Hono } from '../http/hono.ts';
import { html } from 'hono/html';
import type { Child } from 'hono/jsx';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from '../http/app-env.ts';
import { ConfigError } from '../config-error.ts';
import { getConfig } from '../env.ts';
import type { Identity } from '../auth/identity.ts';
import { oauthOrigin } from '../auth/oauth-origin.ts';
import { readableTaskPage } from '../auth/readable-tasks.ts';
import { sessionPerson } from '../auth/session-person.ts';
import { sessionCookie } from '../auth/session.ts';
import { accessDeps, taskAccess } from '../auth/task-access.ts';
import { bearerTenant } from '../http/bearer-auth.ts';
import { ApiError } from '../http/errors.ts';
import { parseListQuery } from '../http/list-query.ts';
import { NONCE_VARIABLE, pageHeaders, type PageHeadersEnv } from '../http/page-headers.ts';
import { listHref, type TaskListRow } from '../inspector/task-list.ts';
import { taskPageModel } from '../inspector/task-page.ts';
import { taskStub } from '../tasks/durable-task-service.ts';
import { InspectResultSchema, type InspectAccess } from '../tasks/inspection.ts';
import { checkListLink, type ListLink } from '../tasks/list-link.ts';
import { publicOrigin } from '../tasks/public-url.ts';
import { taskViewUrl } from '../tasks/view-link.ts';
import { ErrorPage } from '../views/error-page.tsx';
import { TaskListPage } from '../views/task-list-page.tsx';
import { TaskPage } from '../views/task-page.tsx';
import type { Account } from '../views/account.tsx';
import type { RouteDeps } from './deps.ts';

type PageEnv = AppEnv & { Variables: AppEnv['Variables'] & PageHeadersEnv['Variables'] & { account?: Account } };

const TOKEN_HINT = 'Open the link from the check run or Slack reply, or ask for a fresh one: GET /tasks/:id (a task) or GET /tasks (the list) with an API token answers viewUrl.';
const LIST_HINT = 'GET /tasks with an API token answers viewUrl, a link to this list that opens in a browser for a day. A single task opens with the signed link from its check run or Slack reply.';

/** One value of a repeated-or-missing query parameter; anything else fails the signature check. */
const single = (values: string[] | undefined): string => (values?.length === 1 ? (values[0] ?? '') : '');

export function viewRoutes(deps: RouteDeps): Hono<PageEnv> {
  const app = new Hono<PageEnv>();
  app.use('/tasks/:id/view', pageHeaders);
  app.use('/view', pageHeaders);

  const page = (c: Context<PageEnv>, body: Child, status: ContentfulStatusCode = 200) => {
    c.header('Cache-Control', 'no-store');
    return c.html(html`<!doctype html>${body}`, status);
  };
  const nonce = (c: Context<PageEnv>): string => c.get(NONCE_VARIABLE) ?? '';
  const errorPage = (c: Context<PageEnv>, status: ContentfulStatusCode, title: string, message: string, hint?: string) => {
    if (status === 401) c.header('WWW-Authenticate', 'Bearer');
    return page(c, <ErrorPage title={title} message={message} hint={hint} nonce={nonce(c)} requestId={c.get('requestId')} account={c.get('account')} />, status);
  };

  /**
   * The person the session cookie names (renewing their GitHub token when due), and what the page's
   * account bar shows: who is signed in, or where people can sign in with GitHub, the way to.
   */
  const signedIn = async (c: Context<PageEnv>): Promise<Identity | undefined> => {
    let offered = false;
    try {
      offered = oauthOrigin(getConfig(c.env), c.req.url) !== undefined;
    } catch {
      // A configuration error shows on its own; the account bar stays out of it.
    }
    if (!offered) return undefined;
    const found = await sessionPerson(c.env, c.req.header('cookie'), deps.now());
    if (found.identity?.kind === 'person') {
      c.set('account', { signedIn: found.identity.person.login });
      return found.identity;
    }
    // An ended session (revoked on GitHub, expired) loses its cookie too.
    if ('ended' in found && found.ended) c.header('Set-Cookie', sessionCookie(undefined, deps.now()));
    const here = new URL(c.req.url);
    c.set('account', { signIn: `/signin?${new URLSearchParams({ return: here.pathname + here.search }).toString()}` });
    return undefined;
  };
  /** A refusal of auth/ as a page: gone (404), signed out (401), or GitHub could not answer (502). */
  const refusedPage = (c: Context<PageEnv>, refusal: { kind: string; message?: string }, notFound: () => Response | Promise<Response>) => {
    if (refusal.kind === 'signed-out') {
      c.header('Set-Cookie', sessionCookie(undefined, deps.now()));
      return errorPage(c, 401, 'Sign in again', refusal.message ?? 'GitHub no longer accepts your sign-in.');
    }
    if (refusal.kind === 'unavailable') return errorPage(c, 502, 'GitHub could not answer', refusal.message ?? 'GitHub could not say what you may see; nothing is shown. Try again.');
    return notFound();
  };

  /** The 403 (or 503) page for a link that does not open: which of expired, bad signature, links off. */
  const linkRefused = (c: Context<PageEnv>, verdict: { ok: false; reason: 'expired' | 'bad-signature' | 'not-configured'; expiredAt?: Date }) => {
    if (verdict.reason === 'not-configured') return errorPage(c, 503, 'Links are not enabled', 'This deployment signs no view links (VIEW_LINK_SECRET is not set).', 'Use an API token instead.');
    if (verdict.reason === 'expired') return errorPage(c, 403, 'This link has expired', `The link expired at ${verdict.expiredAt?.toISOString() ?? 'an earlier time'}.`, TOKEN_HINT);
    return errorPage(c, 403, 'This link is not valid', 'The link’s signature does not match: it was changed, made for something else, or signed with a secret this deployment no longer accepts.', TOKEN_HINT);
  };

  app.get('/tasks/:id/view', async (c) => {
    const id = c.req.param('id');
    const config = getConfig(c.env);
    const person = await signedIn(c);
    let access: InspectAccess;
    const exp = c.req.query('exp');
    const sig = c.req.query('sig');
    const noTask = () => errorPage(c, 404, 'No such task', `There is no task ${id.slice(0, 64)} that you may see. Tasks are deleted when their retention ends.`);
    if (c.req.header('authorization') !== undefined) {
      const bearer = await bearerTenant(c.req.header('authorization'), config.API_TOKENS);
      if (!bearer.ok) return errorPage(c, 401, 'Not signed in', 'The bearer token is not valid.', TOKEN_HINT);
      access = { tenant: bearer.tenant };
    } else if (exp !== undefined || sig !== undefined) {
      access = { link: { exp: exp ?? '', sig: sig ?? '' } };
    } else if (person) {
      const decided = await taskAccess(person, taskStub(c.env, id), accessDeps(c.env));
      if (!decided.ok) return refusedPage(c, decided, noTask);
      access = { tenant: decided.caller };
    } else {
      return errorPage(c, 401, 'Not signed in', 'This page needs a signed link (with exp and sig), an API token, or signing in with GitHub where this deployment offers it.', TOKEN_HINT);
    }
    const check = c.req.query('freshness');
    if (check !== undefined && check !== '1') return errorPage(c, 400, 'Bad query', `freshness: use freshness=1 to check what changed since the pinned commit (got ${JSON.stringify(check.slice(0, 40))}).`);
    const from = c.req.query('from');
    if (from !== undefined && !/^(?:0|[1-9]\d{0,6})$/.test(from)) return errorPage(c, 400, 'Bad query', `from: the index of the first transcript item to show, a whole number (got ${JSON.stringify(from.slice(0, 40))}).`);
    const stub = taskStub(c.env, id);
    const result = stub ? InspectResultSchema.parse(await stub.inspect(access, { freshness: check === '1' })) : { status: 'not-found' as const };
    if (result.status === 'forbidden') return linkRefused(c, { ok: false, reason: result.reason, ...(result.expiredAt ? { expiredAt: new Date(result.expiredAt) } : {}) });
    if (result.status === 'not-found') return noTask();
    const model = taskPageModel(result.inspection, { githubApiUrl: config.GITHUB_API_URL, timelineFrom: Number(from ?? 0) });
    const listLink = 'tenant' in access ? '/view' : undefined;
    // Same path, same link: the read-back and the timeline's page are query parameters outside the signature.
    const linked = 'link' in access ? access.link : {};
    const freshnessHref = `?${new URLSearchParams({ ...linked, freshness: '1' }).toString()}`;
    const timelineHref = (start: number) => `?${new URLSearchParams({ ...linked, from: String(start) }).toString()}#timeline`;
    return page(c, <TaskPage model={model} nonce={nonce(c)} links={{ listHref: listLink, freshnessHref, timelineHref }} account={c.get('account')} />);
  });

  app.get('/view', async (c) => {
    const config = getConfig(c.env);
    const { tenant: linkTenant, exp, sig, ...queries } = c.req.queries();
    const person = await signedIn(c);
    let identity: Identity;
    let link: ListLink | undefined;
    if (linkTenant === undefined && exp === undefined && sig === undefined) {
      const bearer = await bearerTenant(c.req.header('authorization'), config.API_TOKENS);
      if (bearer.ok) identity = { kind: 'token', tenant: bearer.tenant };
      else if (person && bearer.reason === 'missing') identity = person;
      else return errorPage(c, 401, 'Not signed in', 'The task list needs a signed list link, an API token (Authorization: Bearer), or signing in with GitHub where this deployment offers it.', LIST_HINT);
    } else {
      link = { tenant: single(linkTenant), exp: single(exp), sig: single(sig) };
      const verdict = await checkListLink({ current: config.VIEW_LINK_SECRET, previous: config.VIEW_LINK_SECRET_PREVIOUS }, link, deps.now());
      if (!verdict.ok) return linkRefused(c, verdict);
      identity = { kind: 'token', tenant: link.tenant };
    }
    let query;
    try {
      query = parseListQuery(queries);
    } catch (error) {
      if (error instanceof ApiError) return errorPage(c, 400, 'Bad filter', error.message);
      throw error;
    }
    const readable = await readableTaskPage(c.env, identity, { ...query, after: query.cursor, now: deps.now() }, accessDeps(c.env));
    if (!readable.ok) return readable.kind === 'bad-name' ? errorPage(c, 400, 'Bad filter', readable.message) : refusedPage(c, readable, () => errorPage(c, 403, 'Not yours to see', readable.message));
    const { page: listed, tenants } = readable;
    const origin = publicOrigin(config.PUBLIC_URL, c.req.url);
    const rows = await Promise.all(
      listed.rows.map(async (row): Promise<TaskListRow> => {
        // A person opens each task signed in: a signed link would outlive what GitHub lets them see.
        const signed = identity.kind === 'person' ? null : await taskViewUrl({ secret: config.VIEW_LINK_SECRET, ttlHours: config.VIEW_LINK_TTL_HOURS }, origin, row.taskId, row.expiresAt, deps.now());
        return { ...row, href: signed ?? `/tasks/${row.taskId}/view` };
      }),
    );
    const filters = { status: query.status, origin: query.origin, repo: query.repo, limit: query.limit };
    const model = {
      rows,
      filters,
      link,
      nextHref: listed.next ? listHref(filters, listed.next, link) : undefined,
      firstHref: query.cursor ? listHref(filters, undefined, link) : undefined,
    };
    return page(c, <TaskListPage model={model} nonce={nonce(c)} tenants={tenants} account={c.get('account')} />);
  });

  for (const path of ['/tasks/:id/view', '/view']) {
    app.all(path, (c) => {
      c.header('Allow', 'GET');
      return errorPage(c, 405, 'Method not allowed', `${c.req.method} is not allowed here; use GET.`);
    });
  }

  app.onError((error, c) => {
    if (error instanceof ConfigError) {
      console.error(`[${c.get('requestId')}]`, error.message);
      return errorPage(c, 503, 'Not configured', `The service is not configured for this request: check ${error.fields.join(', ') || 'its settings'}.`);
    }
    console.error(`[${c.get('requestId')}] unhandled`, error);
    return errorPage(c, 500, 'Something went wrong', 'The page could not be made; the details are in the service log.');
  });
  return app;
}

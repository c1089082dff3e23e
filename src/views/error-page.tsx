/**
 * @module views/error-page
 * A page that says why there is nothing to show (an expired link, a bad signature, no access),
 * and what to do instead. It never shows any of the task.
 */
import type { Child } from 'hono/jsx';
import type { Account } from './account.tsx';
import { Layout } from './layout.tsx';
import { Visible } from './text.tsx';

export function ErrorPage({ title, message, hint, nonce, requestId, account }: { title: string; message: string; hint?: string | undefined; nonce: string; requestId: string; account?: Account }): Child {
  return (
    <Layout title={`${title} · Groundwork inspector`} nonce={nonce} account={account}>
      <nav class="crumbs">Groundwork inspector</nav>
      <h1>
        <Visible text={title} />
      </h1>
      <p>
        <Visible text={message} />
      </p>
      {hint ? (
        <p class="muted">
          <Visible text={hint} />
        </p>
      ) : null}
      <p class="muted">
        Request{' '}
        <code>
          <Visible text={requestId} />
        </code>
      </p>
    </Layout>
  );
}

/**
 * @module views/account
 * Who is looking, at the top of every inspector page: "Signed in as @login" with a sign-out
 * button, or, where people can sign in with GitHub, a "Sign in with GitHub" link beside whatever
 * else opened the page (a signed link, an API token). A plain POST form for signing out: the page
 * runs no scripts, and the session cookie is SameSite=Lax, so another site cannot post it.
 */
import type { Child } from 'hono/jsx';

export type Account = { signedIn: string } | { signIn: string } | undefined;

export function AccountBar({ account }: { account: Account }): Child {
  if (!account) return null;
  if ('signIn' in account) {
    return (
      <p class="account">
        <a href={account.signIn}>Sign in with GitHub</a>
      </p>
    );
  }
  return (
    <form class="account" method="post" action="/signout">
      Signed in as <strong>@{account.signedIn}</strong> <button type="submit">Sign out</button>
    </form>
  );
}

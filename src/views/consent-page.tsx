/**
 * @module views/consent-page
 * "Allow <client> to use Groundwork as you?", shown before anyone is sent to GitHub, once per
 * authorization (the MCP security guidance against confused deputies: a proxy that signs people in
 * with a third party asks for consent per client first). It shows what the MCP authorization spec
 * and the provider's docs/consent-page.md ask for: the client's name (its own words, unverified),
 * where the access goes (the redirect URI's host), a warning when that is this computer, and what
 * the access allows. Everything the client chose is escaped by JSX.
 */
import type { Child } from 'hono/jsx';
import { Layout } from './layout.tsx';
import { Visible } from './text.tsx';

export interface ConsentModel {
  clientName: string;
  redirectHost: string;
  redirectIsLoopback: boolean;
  /** The browser-bound handle the form posts back (the provider's beginConsent). */
  handle: string;
}

export function ConsentPage({ model, nonce }: { model: ConsentModel; nonce: string }): Child {
  return (
    <Layout title="Sign in · Groundwork" nonce={nonce}>
      <nav class="crumbs">Groundwork</nav>
      <h1>
        Allow <Visible text={model.clientName} /> to use Groundwork as you?
      </h1>
      <p>
        The app named itself <strong><Visible text={model.clientName} /></strong>; that name is not verified. Its access will be sent to{' '}
        <strong><Visible text={model.redirectHost} /></strong>.
      </p>
      {model.redirectIsLoopback ? (
        <p class="warn">This sends access to an app on your own computer. Continue only if you just started signing in from it.</p>
      ) : null}
      <p>
        You continue on GitHub. With your GitHub sign-in the app can read the tasks, rules, skills and knowledge of the repositories GitHub lets you read, start tasks on
        them, and record knowledge on the ones you can push to. GitHub decides, every time.
      </p>
      <form method="post" action="/authorize">
        <input type="hidden" name="handle" value={model.handle} />
        <p>
          <button type="submit" name="decision" value="approve">
            Continue with GitHub
          </button>{' '}
          <button type="submit" name="decision" value="deny">
            Deny
          </button>
        </p>
      </form>
    </Layout>
  );
}

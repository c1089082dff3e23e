/**
 * @module views/layout
 * The page shell: one inline stylesheet under the request's CSP nonce, no scripts, no external
 * assets. The stylesheet is a constant of ours, so it is the one thing written unescaped.
 */
import type { Child } from 'hono/jsx';
import { AccountBar, type Account } from './account.tsx';
import { STYLES } from './styles.ts';
import { visibleText } from './text.tsx';

/** `account`: who is looking, or how to sign in (views/account); nothing where people cannot sign in. */
export function Layout({ title, nonce, account, children }: { title: string; nonce: string; account?: Account; children?: Child }): Child {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="referrer" content="no-referrer" />
        <title>{visibleText(title)}</title>
        <style nonce={nonce} dangerouslySetInnerHTML={{ __html: STYLES }} />
      </head>
      <body>
        <main>
          <AccountBar account={account} />
          {children}
        </main>
      </body>
    </html>
  );
}

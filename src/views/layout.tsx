/**
 * @module views/layout
 * The page shell: one inline stylesheet under the request's CSP nonce, no scripts, no external
 * assets. The stylesheet is a constant of ours, so it is the one thing written unescaped.
 */
import type { Child } from 'hono/jsx';
import { STYLES } from './styles.ts';
import { visibleText } from './text.tsx';

export function Layout({ title, nonce, children }: { title: string; nonce: string; children?: Child }): Child {
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
        <main>{children}</main>
      </body>
    </html>
  );
}

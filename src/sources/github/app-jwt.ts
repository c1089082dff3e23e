/**
 * @module sources/github/app-jwt
 * The App's JWT for an installation token exchange, signed beside the token cache's store read
 * instead of after it, and once (issue 56). auth-app asks its cache first and signs only on a
 * miss, so a cold task waited for the KV read (20-40 ms) and then for an RSA signature; and it
 * signs again for the exchange request itself, which passes through its own request hook
 * (`/app/installations/{id}/access_tokens` is an App route there): two signatures one after the
 * other. Here the token cache starts the signature as it goes to the store (`signNow`), and
 * auth-app's `createJwt` hook takes that one, both times (`take`). A JWT is good for ten minutes;
 * one signed more than FRESH_MS ago is not taken, so a signature made for a read that hit never
 * serves an exchange much later. The JWT is auth-app's own (universal-github-app-jwt through a
 * second, tokenless `createAppAuth`), with the claims auth-app would have made.
 */
import { createAppAuth } from '@octokit/auth-app';

/** How long a signature is taken for exchanges (GitHub accepts the JWT for ten minutes). */
const FRESH_MS = 60_000;

type Jwt = { jwt: string; expiresAt: string };

export interface AppJwt {
  /** Starts signing now, unless a fresh signature is under way or made. */
  signNow(): void;
  /** auth-app's `createJwt`: the fresh signature, else a new one; `timeDifference` (a clock GitHub said is off) always signs anew. */
  take(appId: string | number, timeDifference?: number): Promise<Jwt>;
}

export function appJwtInAdvance(appId: string, privateKey: string, clock: () => number = Date.now): AppJwt {
  // Signs only (`type: 'app'`): it never reads or writes a token cache.
  const signer = createAppAuth({ appId, privateKey });
  const sign = async (timeDifference?: number): Promise<Jwt> => {
    const { token, expiresAt } = await (timeDifference ? createAppAuth({ appId, privateKey, timeDifference }) : signer)({ type: 'app' });
    return { jwt: token, expiresAt };
  };
  let made: { at: number; jwt: Promise<Jwt> } | undefined;
  const fresh = () => (made && clock() - made.at < FRESH_MS ? made.jwt : undefined);
  const start = (): Promise<Jwt> => {
    const jwt = sign();
    made = { at: clock(), jwt };
    // A key that cannot sign fails the exchange that takes it, as auth-app's own signing would; the next one signs again.
    jwt.catch(() => {
      if (made?.jwt === jwt) made = undefined;
    });
    return jwt;
  };
  return {
    signNow() {
      if (!fresh()) start();
    },
    take(_appId, timeDifference) {
      if (timeDifference) return sign(timeDifference);
      return fresh() ?? start();
    },
  };
}

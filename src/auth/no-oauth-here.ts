/**
 * @module auth/no-oauth-here
 * The 404 for an OAuth path where this deployment signs no one in (auth/oauth-origin), and the 503
 * for a configuration it cannot read: the same answers from the main Worker (the resources'
 * metadata, the forward without a binding) and the authorization Worker.
 */
import { ConfigError } from '../config-error.ts';
import { envelope } from '../http/errors.ts';
import { oauthOrigin, type OAuthOriginSettings } from './oauth-origin.ts';

/**
 * The request's OAuth origin (auth/oauth-origin), else its answer: the 404 where this deployment
 * signs no one in, the 503 for settings it cannot read. `settings` is read here, so that error is one.
 */
export function originOrAnswer(settings: () => OAuthOriginSettings, request: Request): string | Response {
  let origin: string | undefined;
  try {
    origin = oauthOrigin(settings(), request.url);
  } catch (error) {
    return configErrorAnswer(error);
  }
  return origin ?? noOAuthHere(new URL(request.url).pathname);
}

export function noOAuthHere(path: string): Response {
  const requestId = crypto.randomUUID();
  const message = `no OAuth here: ${path} is served where people sign in with GitHub (GITHUB_APP_CLIENT_ID and GITHUB_APP_CLIENT_SECRET set, at PUBLIC_URL or an https origin); use an API token`;
  return Response.json(envelope('not_found', message, requestId), { status: 404, headers: { 'x-request-id': requestId } });
}

/** A ConfigError as http/routed-app answers it (503 naming the fields); anything else is thrown on. */
export function configErrorAnswer(error: unknown): Response {
  if (!(error instanceof ConfigError)) throw error;
  const requestId = crypto.randomUUID();
  console.error(`[${requestId}]`, error.message);
  const fields = error.fields.length > 0 ? `: check ${error.fields.join(', ')}` : '';
  return Response.json(envelope('not_configured', `the service is not configured for this request${fields}`, requestId), { status: 503, headers: { 'x-request-id': requestId } });
}

/**
 * @module http/app-env
 * The Hono environment every route runs in: the Worker's bindings and the request's id.
 */
export type AppEnv = { Bindings: Env; Variables: { requestId: string } };

/**
 * @module config-error
 * The service is not configured for a request: a setting is missing or invalid (env.ts,
 * deployment-agents). Apart from env.ts, so the error handler every route group shares
 * (http/routed-app) does not load the configuration's schemas to recognise it.
 */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  /** The settings that are wrong, e.g. `TENANT_GRANTS.acme.0`; names only, never values. */
  readonly fields: readonly string[];
  constructor(message: string, fields: readonly string[] = []) {
    super(message);
    this.fields = fields;
  }
}

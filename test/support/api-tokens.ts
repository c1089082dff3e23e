/** Tenants and tokens of the REST API under test (bound as API_TOKENS by vitest.config.ts). */
export const TEST_API_TOKENS = { acme: 'acme-token-0123456789abcdef', globex: 'globex-token-0123456789abcdef' };

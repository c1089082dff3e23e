/**
 * @module tasks/github-app-code
 * The App installation code that loads on first use, as one module: the installation client a
 * comment's pull-request lookup builds (triggers/github/app-client) and a task's installation
 * token asked for ahead of its assembly (tasks/token-ahead). The two share the GitHub client, and
 * one entry for both keeps the upload in fewer chunks (a second one measured +0.9 KiB gzipped in
 * module boundaries, issue 56), as durable-objects/small-objects does for the small objects.
 */
export { installationClient } from '../triggers/github/app-client.ts';
export { tokenAhead } from './token-ahead.ts';

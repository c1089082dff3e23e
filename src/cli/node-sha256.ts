/**
 * @module cli/node-sha256
 * Every command hashes with Node's `createHash` instead of Web Crypto: the first `crypto.subtle`
 * a Node process touches loads Node's Web Crypto layer (its key classes, WebIDL converters and
 * algorithm tables), about 5% of what `node -e 0` costs, for the two or three digests a
 * `context` or session-start hook run makes, while `node:crypto` is loaded already (the code
 * cache's key, cli/code-cache). The bytes are the same (test/node/sha256). Imported by
 * cli/zod-config, which every command imports first.
 */
import { createHash } from 'node:crypto';
import { installSha256 } from '../lib/sha256.ts';

// Strings as UTF-8, as TextEncoder encodes them (a lone surrogate becomes U+FFFD in both).
installSha256((data) => createHash('sha256').update(data).digest('hex'));

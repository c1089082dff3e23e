/**
 * @module cli/zod-config
 * zod compiles a fast path for each object schema (with `new Function`) the first time it parses,
 * deciding whether to when the schema is built. That pays off in a long-lived server; a CLI run
 * parses each schema a handful of times and spends more compiling than it saves. Imported first by
 * each command, so the setting is in place before any schema module is evaluated; with it comes
 * the other per-process setting, SHA-256 by Node's own hash (cli/node-sha256).
 */
import './node-sha256.ts';
import * as z from 'zod';

z.config({ jitless: true });

/**
 * @module cli/zod-config
 * zod compiles a fast path for each object schema (with `new Function`) the first time it parses.
 * That pays off in a long-lived server; a CLI run parses each schema a handful of times and would
 * spend more compiling than it saves, so the CLI turns it off.
 */
import { z } from 'zod';

export function useInterpretedZod(): void {
  z.config({ jitless: true });
}

// zod compiles an object's parser with `new Function` only where its probe says the runtime allows
// it; on Cloudflare the probe answers false (zod's util.allowsEval), so the Worker's build leaves
// the compiler out (scripts/worker-rewrites `zodForWorkerd`, test/node/worker-zod-object). If a
// zod upgrade made workerd compile parsers, this fails and that cut must be revisited.
import * as z from 'zod';
import { describe, expect, it } from 'vitest';

describe('zod in workerd', () => {
  it('never compiles a parser: its eval probe answers false', () => {
    expect(z.util.allowsEval.value).toBe(false);
  });
});

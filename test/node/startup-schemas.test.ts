// Most of a cold isolate's start-up CPU is zod building schemas (issue 28), so the Worker's
// module-level schemas are built on first use (docs/development.md#module-level-schemas). This
// counts what the real bundle builds before its first request, as `npm run bench -- startup`
// does, and fails when a module builds its schemas eagerly again.
import { describe, expect, it } from 'vitest';
import { countStartupSchemas } from '../../bench/startup-schemas.ts';

/** 319 when it was set: the configuration (97, which every request parses) and ~230 lazy wrappers. */
const BUDGET = 360;

describe('zod schemas the Worker builds at start-up', () => {
  it(`stay within ${BUDGET}, and no provider's settings are among them`, async () => {
    const counted = await countStartupSchemas();
    expect(counted, "zod's constructor changed: update CONSTRUCTOR in bench/startup-schemas.ts").toBeDefined();
    const top = counted!.byModule.slice(0, 8).map(({ module, count }) => `${module} ${count}`).join(', ');
    expect(counted!.total, `built at start-up, most by: ${top}`).toBeLessThanOrEqual(BUDGET);
    // A provider's settings are built with the registry: its modules build only lazy wrappers at
    // start-up (and the host provider its empty settings object).
    const eager = counted!.byModule.filter(({ module, count, lazy }) => module.startsWith('src/providers/') && count - lazy > (module === 'src/providers/host/provider.ts' ? 1 : 0));
    expect(eager).toEqual([]);
  }, 120_000);
});

// A cold isolate evaluates only the Worker's entry before its first event (scripts/worker-build
// splits the upload), and every other module's top level runs when a request or an object first
// loads it: zod building schemas there was most of that cost (issue 28), so module-level schemas
// are built on first use (docs/development.md#module-level-schemas). This counts what the real
// upload builds, as `npm run bench -- startup` does, and fails when the entry builds any, or a
// module builds its schemas eagerly again.
import { describe, expect, it } from 'vitest';
import { countStartupSchemas } from '../../bench/startup-schemas.ts';

/** 319 when it was set: the configuration (97, which every request parses) and ~230 lazy wrappers. */
const BUDGET = 360;

describe('zod schemas the Worker builds when its modules load', () => {
  it(`are none at start-up, stay within ${BUDGET} over every module, and no provider's settings are among them`, async () => {
    const counted = await countStartupSchemas();
    expect(counted, "zod's constructor changed: update CONSTRUCTOR in bench/startup-schemas.ts").toBeDefined();
    const { startup, everyModule } = counted!;
    expect(startup.byModule, 'the entry module builds schemas before the first event').toEqual([]);
    const top = everyModule.byModule.slice(0, 8).map(({ module, count }) => `${module} ${count}`).join(', ');
    expect(everyModule.total, `built by the modules' top level, most by: ${top}`).toBeLessThanOrEqual(BUDGET);
    // A provider's settings are built with the registry: its modules build only lazy wrappers when
    // they load (and the host provider its empty settings object).
    const eager = everyModule.byModule.filter(({ module, count, lazy }) => module.startsWith('src/providers/') && count - lazy > (module === 'src/providers/host/provider.ts' ? 1 : 0));
    expect(eager).toEqual([]);
  }, 120_000);
});

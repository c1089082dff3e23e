/**
 * @module views/task-page
 * `GET /tasks/:id/view`: the task's header, the freshness read-back (when asked), the checks made
 * before actions, each turn (outcomes, prompt anatomy, settings), and the transcript timeline.
 */
import type { Child } from 'hono/jsx';
import type { Account } from './account.tsx';
import type { TaskPageModel } from '../inspector/task-page.ts';
import { ChecksSection } from './checks-section.tsx';
import { FreshnessSection } from './freshness-section.tsx';
import { Layout } from './layout.tsx';
import { TaskHeaderSection } from './task-header.tsx';
import { Timeline } from './timeline.tsx';
import { TurnSection } from './turn-section.tsx';

export interface TaskPageLinks {
  listHref?: string | undefined;
  freshnessHref: string;
  /** The page with the timeline starting at item `from`, same access. */
  timelineHref: (from: number) => string;
}

export function TaskPage({ model, nonce, links, account }: { model: TaskPageModel; nonce: string; links: TaskPageLinks; account?: Account }): Child {
  const { listHref, freshnessHref } = links;
  const notShown = model.turnsNotShown;
  return (
    <Layout title={`Task ${model.header.id.slice(0, 12)} · Groundwork inspector`} nonce={nonce} account={account}>
      <nav class="crumbs" aria-label="Breadcrumb">
        Groundwork inspector{listHref ? <> · <a href={listHref}>all tasks</a></> : null}
      </nav>
      <TaskHeaderSection header={model.header} />
      <FreshnessSection freshness={model.freshness} checkHref={freshnessHref} />
      <ChecksSection checks={model.checks} />
      {model.turns.length === 0 ? (
        <section aria-labelledby="no-turns">
          <h2 id="no-turns">Turns</h2>
          <p class="muted">No turn has been assembled yet. Reload this page once the task is ready.</p>
        </section>
      ) : (
        model.turns.map((turn) => (
          <>
            {notShown && turn.turn === notShown.last + 1 ? (
              <p class="cut">
                Turns {notShown.first}–{notShown.last} ({notShown.count.toLocaleString('en-US')}) are not shown on this page; GET /tasks/:id/turns/:n answers each, and their items are in the timeline.
              </p>
            ) : null}
            <TurnSection turn={turn} />
          </>
        ))
      )}
      <Timeline page={model.timeline} pageHref={links.timelineHref} />
    </Layout>
  );
}

/**
 * @module views/turn-usage
 * Did the cache pay off: what the model API reported for the turn's request (input, read from
 * the cache, written to it, output), beside Groundwork's own estimate of what could be read
 * from it (the shared prefix, or for a later turn the previous request).
 */
import type { Child } from 'hono/jsx';
import type { UsageModel } from '../inspector/task-page.ts';
import type { WindowModel } from '../inspector/window.ts';
import { percent } from './context-window.tsx';
import { count, Time, Visible } from './text.tsx';

const VENDORS = { anthropic: 'Anthropic Messages', 'openai-responses': 'OpenAI Responses', 'openai-chat': 'OpenAI Chat Completions' } as const;

export function TurnUsage({ turn, usage, window }: { turn: number; usage: UsageModel | undefined; window: WindowModel }): Child {
  const estimate = window.earlierRequest ?? window.sharedPrefix;
  const estimateOf = window.earlierRequest !== undefined ? `turn ${turn - 1}’s request` : 'the prefix every task on this commit shares';
  return (
    <section aria-labelledby={`usage-${turn}`}>
      <h4 id={`usage-${turn}`}>Prompt cache</h4>
      {usage ? (
        <dl class="facts usage" data-cached={String(usage.cachedTokens)}>
          <dt>Reported</dt>
          <dd>
            {VENDORS[usage.format]}
            {usage.model ? (
              <>
                {' · '}
                <Visible text={usage.model} />
              </>
            ) : null}{' '}
            <span class="muted">
              at <Time iso={usage.receivedAt} />
            </span>
          </dd>
          <dt>Input</dt>
          <dd>{count(usage.inputTokens)} tokens</dd>
          <dt>Read from cache</dt>
          <dd>
            <strong>{count(usage.cachedTokens)}</strong> ({percent(usage.cachedTokens, usage.inputTokens)} of the input)
          </dd>
          <dt>Written to cache</dt>
          <dd>{usage.cacheWriteTokens === null ? <span class="muted">not reported by this API</span> : `${count(usage.cacheWriteTokens)} tokens`}</dd>
          <dt>Output</dt>
          <dd>{count(usage.outputTokens)} tokens</dd>
          <dt>Groundwork’s estimate</dt>
          <dd>
            {count(estimate)} of {count(window.total)} tokens could be read from the cache ({estimateOf}, {percent(estimate, window.total)}; its own counter, not the vendor’s tokenizer)
          </dd>
        </dl>
      ) : (
        <p class="muted">
          No usage reported for this turn. Groundwork estimates {count(estimate)} of {count(window.total)} tokens ({percent(estimate, window.total)}) could be read from the cache ({estimateOf}). A host
          that calls the model posts the vendor’s <code>usage</code> to <code>POST /tasks/:id/turns/{turn}/usage</code> to show what it really read.
        </p>
      )}
    </section>
  );
}

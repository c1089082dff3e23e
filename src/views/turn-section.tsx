/**
 * @module views/turn-section
 * One turn: its digest and size, what its GitHub reads cost, the providers' outcomes, the rule
 * files' verdicts, the picture of its context window with each provider's budget and what the
 * prompt cache did, the prompt anatomy, and the settings it was assembled with.
 */
import type { Child } from 'hono/jsx';
import type { TurnModel } from '../inspector/task-page.ts';
import { ContextWindow } from './context-window.tsx';
import { OutcomeTable } from './outcome-table.tsx';
import { ProviderBudgets } from './provider-budgets.tsx';
import { TurnUsage } from './turn-usage.tsx';
import { PromptAnatomy } from './prompt-anatomy.tsx';
import { RuleFiles } from './rule-files.tsx';
import { RuleMatrix } from './rule-matrix.tsx';
import { SettingsLayers } from './settings-layers.tsx';
import { count, MaybeLink, OptionalFact, Time, Visible, visibleText } from './text.tsx';

export function TurnSection({ turn }: { turn: TurnModel }): Child {
  return (
    <section id={`turn-${turn.turn}`} aria-labelledby={`turn-title-${turn.turn}`}>
      <h2 id={`turn-title-${turn.turn}`}>Turn {turn.turn}</h2>
      <dl class="facts">
        <dt>Digest</dt>
        <dd>
          <code>
            <Visible text={turn.digest} />
          </code>
        </dd>
        <dt>Size</dt>
        <dd>
          {count(turn.chars)} chars · {count(turn.tokens)} tokens of context
        </dd>
        <dt>Agent</dt>
        <dd>
          <Visible text={turn.agent} />
          {turn.agentHash ? (
            <span class="muted">
              {' '}
              · configuration <code title={visibleText(turn.agentHash)}>
                <Visible text={turn.agentHash.slice(0, 19)} />
              </code>
            </span>
          ) : null}
          {turn.tools.length > 0 ? (
            <span class="muted">
              {' · tools '}
              <Visible text={turn.tools.join(', ')} />
            </span>
          ) : null}
        </dd>
        <dt>Commit</dt>
        <dd>{turn.commit ? <MaybeLink text={turn.commit.text} href={turn.commit.href} mono /> : <span class="muted">none</span>}</dd>
        <dt>Assembled</dt>
        <dd>
          <Time iso={turn.createdAt} />
        </dd>
        {turn.hostItemId ? (
          <>
            <dt>Transcript item</dt>
            <dd>
              <code>
                <Visible text={turn.hostItemId} />
              </code>
            </dd>
          </>
        ) : null}
        <OptionalFact label="GitHub cost" text={turn.github} />
      </dl>
      <OutcomeTable turn={turn.turn} outcomes={turn.outcomes} />
      <RuleFiles turn={turn.turn} files={turn.ruleFiles} />
      <RuleMatrix turn={turn.turn} files={turn.ruleFiles} client={turn.client} />
      <ContextWindow turn={turn.turn} window={turn.window} />
      <ProviderBudgets turn={turn.turn} rows={turn.budgets} />
      <TurnUsage turn={turn.turn} usage={turn.usage} window={turn.window} />
      <PromptAnatomy turn={turn} />
      {turn.settings ? <SettingsLayers turn={turn.turn} settings={turn.settings} /> : null}
    </section>
  );
}

/**
 * @module views/turn-section
 * One turn: its digest and size, the settings it was assembled with, what its GitHub reads cost,
 * the providers' outcomes, the rule files' verdicts and the prompt anatomy.
 */
import type { Child } from 'hono/jsx';
import type { TurnModel } from '../inspector/task-page.ts';
import { OutcomeTable } from './outcome-table.tsx';
import { PromptAnatomy } from './prompt-anatomy.tsx';
import { RuleFiles } from './rule-files.tsx';
import { SettingsLayers } from './settings-layers.tsx';
import { count, MaybeLink, OptionalFact, Time, Visible } from './text.tsx';

export function TurnSection({ turn }: { turn: TurnModel }): Child {
  return (
    <section id={`turn-${turn.turn}`} aria-labelledby={`turn-title-${turn.turn}`}>
      <h2 id={`turn-title-${turn.turn}`}>Turn {turn.turn}</h2>
      <dl class="facts">
        <dt>Digest</dt>
        <dd>
          <code>{turn.digest}</code>
        </dd>
        <dt>Size</dt>
        <dd>
          {count(turn.chars)} chars · {count(turn.tokens)} tokens of context
        </dd>
        <dt>Agent</dt>
        <dd>
          {turn.agent}
          {turn.agentHash ? (
            <span class="muted">
              {' '}
              · configuration <code title={turn.agentHash}>{turn.agentHash.slice(0, 19)}</code>
            </span>
          ) : null}
          {turn.tools.length > 0 ? <span class="muted"> · tools {turn.tools.join(', ')}</span> : null}
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
      <PromptAnatomy turn={turn} />
      {turn.settings ? <SettingsLayers turn={turn.turn} settings={turn.settings} /> : null}
    </section>
  );
}

/**
 * @module views/prompt-anatomy
 * One turn's prompt in the order the model reads it: the host's system blocks, then each section
 * of the user message with its label (provider, category, title, source, freshness), each body
 * collapsed in a `<details>`.
 */
import type { Child } from 'hono/jsx';
import type { SectionModel } from '../inspector/anatomy.ts';
import type { TurnModel } from '../inspector/task-page.ts';
import { Body, count, MaybeLink, OptionalFact, Visible } from './text.tsx';

const CUT = 'the turn API (GET /tasks/:id/turns/:n) has the whole text.';

export function PromptAnatomy({ turn }: { turn: TurnModel }): Child {
  const { anatomy } = turn;
  return (
    <section aria-labelledby={`anatomy-${turn.turn}`}>
      <h3 id={`anatomy-${turn.turn}`}>Prompt anatomy</h3>
      {turn.system.map((block, index) => (
        <details class="section">
          <summary>
            <span class="kind k-system">system message</span> {index + 1} of {turn.system.length} <span class="muted">· host text · {count(block.length)} chars</span>
          </summary>
          <Body body={{ text: block, cut: 0 }} cutNote={CUT} />
        </details>
      ))}
      {anatomy === null ? (
        <p class="muted">This turn added nothing to the transcript: no provider had anything new to say.</p>
      ) : anatomy.ok ? (
        anatomy.sections.map((section) => <Section section={section} />)
      ) : (
        <details class="section">
          <summary>
            <span class="kind">message</span> not split into sections (stored before sections had boundaries)
          </summary>
          <Body body={anatomy.text} cutNote={CUT} />
        </details>
      )}
    </section>
  );
}

function Section({ section }: { section: SectionModel }): Child {
  switch (section.kind) {
    case 'task':
      return (
        <details class="section" id={section.anchor}>
          <summary>
            <span class="kind k-task">task</span> the request
          </summary>
          <p class="meta mono">
            {section.attributes
              .filter(([key]) => key !== 'boundary')
              .map(([key, value]) => (
                <>
                  <Visible text={key} />=<Visible text={value} />{' '}
                </>
              ))}
          </p>
          <Body body={section.body} cutNote={CUT} />
        </details>
      );
    case 'notice':
      return (
        <details class="section" id={section.anchor}>
          <summary>
            <span class="kind k-notice">notice</span> from <Visible text={section.provider} /> <span class="muted">· host text standing in for what was not read</span>
          </summary>
          <Body body={section.body} cutNote={CUT} />
        </details>
      );
    case 'context':
      return <ContextSection section={section} />;
    case 'other':
      return (
        <details class="section" id={section.anchor}>
          <summary>
            <span class="kind">
              <Visible text={section.tag} />
            </span>
          </summary>
          <Body body={section.body} cutNote={CUT} />
        </details>
      );
  }
}

function ContextSection({ section }: { section: Extract<SectionModel, { kind: 'context' }> }): Child {
  const warnings = section.entry?.warnings ?? [];
  return (
    <details class="section" id={section.anchor}>
      <summary>
        <span class="kind k-context">
          <Visible text={section.category} />
        </span> <strong><Visible text={section.heading ?? section.title} /></strong>{' '}
        <span class="muted">
          from <Visible text={section.provider} /> · <span class="mono"><Visible text={shortLabel(section.source.label)} /></span>
          {section.source.blob ? (
            <>
              {' · blob '}
              <span class="mono">
                <Visible text={section.source.blob.slice(0, 12)} />
              </span>
            </>
          ) : null}
          {' · '}
          <Visible text={section.freshness} />
          {section.truncated ? ' · truncated' : ''}
          {warnings.length > 0 ? ` · ${warnings.length} warning${warnings.length === 1 ? '' : 's'}` : ''}
        </span>
      </summary>
      <dl class="facts meta">
        {section.heading ? (
          <>
            <dt>Title</dt>
            <dd>
              <Visible text={section.title} />
            </dd>
          </>
        ) : null}
        <dt>Provider</dt>
        <dd>
          <Visible text={section.provider} /> (<Visible text={section.category} />)
        </dd>
        <dt>Source</dt>
        <dd>
          <MaybeLink text={section.source.label} href={section.source.href} mono />
          {section.source.blob ? (
            <span class="muted">
              {' · blob '}
              <code>
                <Visible text={section.source.blob} />
              </code>
            </span>
          ) : null}
        </dd>
        <dt>Freshness</dt>
        <dd>
          <Visible text={section.freshness} />
          {section.entry?.stability ? <span class="muted"> · {section.entry.stability}-stable</span> : null}
        </dd>
        <OptionalFact label="Review by" text={section.reviewBy} />
        <dt>Size</dt>
        <dd>
          {section.entry ? `${count(section.entry.chars)} chars` : 'not recorded'}
          {section.truncated ? ' · truncated to fit its budget' : ''}
        </dd>
      </dl>
      {warnings.length > 0 ? (
        <ul class="warnings">
          {warnings.map((warning) => (
            <li>
              <Visible text={warning} />
            </li>
          ))}
        </ul>
      ) : null}
      <Body body={section.body} cutNote={CUT} />
    </details>
  );
}

/** `path@<12 hex>` for a summary line: the full commit is in the details and the link. */
function shortLabel(label: string): string {
  return label.replace(/@([0-9a-f]{12})[0-9a-f]{28}$/, '@$1');
}

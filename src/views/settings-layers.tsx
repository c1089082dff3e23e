/**
 * @module views/settings-layers
 * The settings a turn was assembled with: what each layer did, and each provider's effective
 * settings with the layer that set each field.
 */
import type { Child } from 'hono/jsx';
import type { SettingsReport } from '../context/settings/report.ts';
import { ScrollTable, type Column } from './table-section.tsx';
import { count, Visible } from './text.tsx';

const LAYER_COLUMNS: Column[] = [{ label: 'Layer' }, { label: 'Status' }, { label: 'Source' }, { label: 'Reason' }];
const PROVIDER_COLUMNS: Column[] = [{ label: 'Provider' }, { label: 'Enabled' }, { label: 'Budget', num: true }, { label: 'Set by a layer' }, { label: 'Config' }];

export function SettingsLayers({ turn, settings }: { turn: number; settings: SettingsReport }): Child {
  return (
    <section aria-labelledby={`settings-${turn}`}>
      <h3 id={`settings-${turn}`}>Settings</h3>
      <ScrollTable caption="Layers, lowest precedence first" columns={LAYER_COLUMNS}>
            {settings.layers.map((layer) => (
              <tr>
                <th scope="row">{layer.layer}</th>
                <td>{layer.status}</td>
                <td>{layer.source ? <code><Visible text={layer.source} /></code> : <span class="muted">—</span>}</td>
                <td class="reason">{layer.reason ? <Visible text={layer.reason} /> : <span class="muted">—</span>}</td>
              </tr>
            ))}
      </ScrollTable>
      <details>
        <summary>Effective provider settings</summary>
        <ScrollTable columns={PROVIDER_COLUMNS}>
              {settings.providers.map((provider) => (
                <tr>
                  <th scope="row">
                    <Visible text={provider.name} />
                  </th>
                  <td>{provider.enabled ? 'yes' : 'no'}</td>
                  <td class="num">{count(provider.budget)}</td>
                  <td>
                    {Object.keys(provider.set).length === 0 ? (
                      <span class="muted">defaults</span>
                    ) : (
                      <Visible text={Object.entries(provider.set).map(([field, layer]) => `${field} (${layer})`).join(', ')} />
                    )}
                  </td>
                  <td class="config">
                    <code>
                      <Visible text={JSON.stringify(provider.config, null, 1).replace(/\n\s*/g, ' ')} />
                    </code>
                  </td>
                </tr>
              ))}
        </ScrollTable>
      </details>
      {settings.warnings.length > 0 ? (
        <ul class="warnings">
          {settings.warnings.map((warning) => (
            <li>
              <Visible text={warning} />
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

import { alertsSection } from './monitor-alerts.view';
import type { AlertsView } from './monitor-alerts.view';
import { AccessLevel } from '../../common/error-tracking.constants';
import type { ProjectRecord } from '../../projects/project.types';
import { html } from '../../html/html';
import { page, postForm } from '../toolkit/layout';
import { copyField } from '../toolkit/copy-field';
import { noticeBanner } from '../toolkit/notices';
import type { WebContext } from '../toolkit/web-context';
import type { ClientKeyRecord } from '../../settings/client-keys.repository';

export interface MonitorSettingsView {
  readonly project: ProjectRecord;
  /** The viewer's access level (sidebar and buttons follow it). */
  readonly accessLevel: number;
  readonly keys: ReadonlyArray<{ key: ClientKeyRecord; dsn: string }>;
  /** The DSN to paste into an SDK (the first active key's), once enabled. */
  readonly dsn?: string;
  readonly notice?: unknown;
  readonly alerts: AlertsView;
}

/** Settings > Monitor > Error Tracking: enable, backend, DSN, client keys. */
export function monitorSettingsPage(
  ctx: WebContext,
  view: MonitorSettingsView,
): string {
  const { project } = view;
  const base = `/projects/${project.id}/settings/monitor`;
  return page({
    title: `Monitor settings · ${project.name}`,
    ctx,
    project,
    accessLevel: view.accessLevel,
    section: 'settings',
    breadcrumbs: [
      { label: project.name, href: `/projects/${project.id}/error_tracking` },
      { label: 'Settings' },
      { label: 'Monitor' },
    ],
    body: html`${noticeBanner(view.notice)}
      <div class="page-header">
        <div>
          <h1>Monitor</h1>
          <p class="subtitle">Error tracking for this project.</p>
        </div>
      </div>
      ${view.accessLevel >= AccessLevel.Maintainer ? trackingCards(ctx, view, base) : null}
      ${alertsSection(ctx, base, view.alerts)}`,
  });
}

/** Enable, backend, DSN and client keys (maintainers). */
function trackingCards(
  ctx: WebContext,
  view: MonitorSettingsView,
  base: string,
) {
  const { project } = view;
  return html`<section class="card" aria-labelledby="et-settings">
      <div class="card-header">
        <h2 id="et-settings">Error tracking</h2>
        ${project.trackingActive ? html`<span class="badge badge-success">Enabled</span>` : html`<span class="badge badge-neutral">Disabled</span>`}
      </div>
      <p class="muted">
        Link Quitanda to a Sentry SDK in your application: its errors appear
        under Monitor › Error Tracking.
      </p>
      ${postForm(
        ctx,
        base,
        html`<div class="field">
            <label class="checkbox"
              ><input
                type="checkbox"
                name="active"
                value="true"
                ${project.trackingActive ? html` checked` : null}
              /><span
                ><strong>Active</strong
                ><span class="help"
                  >Accept events sent to this project's DSN.</span
                ></span
              ></label
            >
          </div>
          <fieldset>
            <legend>Error tracking backend</legend>
            <label class="radio"
              ><input
                type="radio"
                name="integrated"
                value="true"
                checked
              /><span
                ><strong>Integrated</strong
                ><span class="help"
                  >Quitanda's own backend: events are stored and grouped
                  here.</span
                ></span
              ></label
            >
          </fieldset>
          <button type="submit" class="btn btn-confirm">Save changes</button>`,
        { className: '' },
      )}
      ${
        project.trackingActive && view.dsn
          ? html`<div class="field dsn">
              ${copyField('dsn', 'Data Source Name (DSN)', view.dsn)}
              <p class="help">
                Paste it into your SDK:
                <code>Sentry.init({ dsn: '…' })</code>.
              </p>
              <p id="copy-status" class="visually-hidden" role="status"></p>
            </div>`
          : null
      }
    </section>
    <section class="card" aria-labelledby="client-keys">
      <div class="card-header">
        <h2 id="client-keys">Client keys</h2>
        ${postForm(ctx, `${base}/client_keys`, html`<button type="submit" class="btn btn-sm">Generate new key</button>`)}
      </div>
      <p class="muted">
        To rotate a key, generate a new one, deploy its DSN to your
        applications, then delete the old key: it stops accepting events at
        once.
      </p>
      ${
        view.keys.length === 0
          ? html`<p class="empty">
              No client keys. Enable error tracking or generate a key.
            </p>`
          : html`<div class="table-wrap">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Public key</th>
                    <th scope="col" class="hide-sm">DSN</th>
                    <th scope="col">
                      <span class="visually-hidden">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  ${view.keys.map(
                    ({ key, dsn }) =>
                      html`<tr>
                        <td><code class="key">${key.publicKey}</code></td>
                        <td class="hide-sm">
                          ${copyField(`dsn-${key.id}`, `DSN of key ${key.publicKey}`, dsn, true)}
                        </td>
                        <td class="num">
                          ${postForm(
                            ctx,
                            `${base}/client_keys/${key.id}/delete`,
                            html`<button
                              type="submit"
                              class="btn btn-sm btn-danger"
                              aria-label="Delete key ${key.publicKey}"
                            >
                              Delete
                            </button>`,
                            {
                              confirm:
                                'Delete this key? Applications using its DSN stop reporting at once.',
                            },
                          )}
                        </td>
                      </tr>`,
                  )}
                </tbody>
              </table>
            </div>`
      }
    </section>`;
}

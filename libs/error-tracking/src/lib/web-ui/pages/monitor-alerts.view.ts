import { html } from '../../html/html';
import type { SafeHtml } from '../../html/html';
import { LOCAL_TARGET_PROBLEMS } from '../../alerts/webhook-target';
import { postForm } from '../toolkit/layout';
import { timeTag } from '../toolkit/relative-time';
import type { WebContext } from '../toolkit/web-context';
import type {
  AlertRules,
  WebhookAttemptRecord,
  WebhookRecord,
} from '../../alerting/alert.types';

/** What was typed into the webhook form it refused, and why. */
export interface HookFormState {
  readonly url: string;
  readonly errorTrackingEvents: boolean;
  /** Per-field problems (`url`, `token`), GitLab's texts. */
  readonly problems: Readonly<Record<string, readonly string[]>>;
}

export interface AlertsView {
  /** Maintainers only: the project's hooks with their recent deliveries. */
  readonly hooks?: ReadonlyArray<{
    hook: WebhookRecord;
    attempts: readonly WebhookAttemptRecord[];
  }>;
  /** Maintainers only. */
  readonly rules?: AlertRules;
  readonly emailEnabled: boolean;
  readonly optedOut: boolean;
  readonly now: Date;
  /** The refused webhook form, shown filled in with its problems. */
  readonly hookForm?: HookFormState;
}

const LOCAL_PROBLEMS: ReadonlySet<string> = new Set(
  Object.values(LOCAL_TARGET_PROBLEMS),
);

/** The form's inline problem of `field`, with what to do about it. */
function fieldProblem(
  id: string,
  label: string,
  problems: readonly string[] | undefined,
): SafeHtml | null {
  if (!problems?.length) return null;
  const local = problems.some((problem) => LOCAL_PROBLEMS.has(problem));
  return html`<p id="${id}" class="field-error">
    ${label} ${problems.join(', ')}.
    ${
      local
        ? html`Local and private addresses are refused unless the instance is
            started with <code>ALERTS_ALLOW_LOCAL_TARGETS=true</code> (for
            receivers on the same machine or network).`
        : null
    }
  </p>`;
}

function deliveryStatus(attempt: WebhookAttemptRecord): SafeHtml {
  if (attempt.responseStatus !== null && attempt.responseStatus < 300)
    return html`<span class="badge badge-success"
      >${attempt.responseStatus}</span
    >`;
  return html`<span class="badge badge-danger"
    >${attempt.responseStatus ?? 'no response'}</span
  >`;
}

function deliveries(
  hook: WebhookRecord,
  attempts: readonly WebhookAttemptRecord[],
  now: Date,
): SafeHtml {
  if (attempts.length === 0)
    return html`<p class="muted">No deliveries yet.</p>`;
  return html`<div class="table-wrap">
    <table aria-label="Recent deliveries to ${hook.url}">
      <thead>
        <tr>
          <th scope="col">Trigger</th>
          <th scope="col">Status</th>
          <th scope="col" class="num">Attempt</th>
          <th scope="col" class="hide-sm">Duration</th>
          <th scope="col">When</th>
        </tr>
      </thead>
      <tbody>
        ${attempts.map(
          (a) =>
            html`<tr>
              <td>${a.trigger}</td>
              <td>
                ${deliveryStatus(a)}
                ${
                  a.error && a.responseStatus === null
                    ? html`<span class="help">${a.error}</span>`
                    : null
                }
              </td>
              <td class="num">${a.attempt}</td>
              <td class="hide-sm">${a.executionDuration.toFixed(2)} s</td>
              <td>${timeTag(a.createdAt, now)}</td>
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}

function hooksCard(ctx: WebContext, base: string, view: AlertsView): SafeHtml {
  const hooks = view.hooks ?? [];
  const form = view.hookForm;
  const urlProblem = fieldProblem(
    'hook-url-error',
    'URL',
    form?.problems['url'],
  );
  const tokenProblem = fieldProblem(
    'hook-token-error',
    'Secret token',
    form?.problems['token'],
  );
  return html`<section class="card" aria-labelledby="webhooks">
    <div class="card-header"><h2 id="webhooks">Webhooks</h2></div>
    <p class="muted">
      Quitanda posts a GitLab-style <code>Error Tracking Hook</code> to each URL
      when an error is new, comes back after it was resolved, or is frequent; a
      receiver that does not answer 2xx gets it again later, with the same
      <code>X-Gitlab-Event-UUID</code>.
    </p>
    ${
      form
        ? html`<div class="alert alert-danger" role="alert">
            The webhook was not added: see below.
          </div>`
        : null
    }
    ${postForm(
      ctx,
      `${base}/hooks`,
      html`<div class="field">
          <label for="hook-url">URL</label>
          <input
            id="hook-url"
            name="url"
            type="url"
            required
            placeholder="https://example.com/hooks/errors"
            value="${form?.url ?? ''}"
            ${urlProblem ? html`aria-invalid="true" aria-describedby="hook-url-error" autofocus` : null}
          />
          ${urlProblem}
        </div>
        <div class="field">
          <label for="hook-token">Secret token</label>
          <input
            id="hook-token"
            name="token"
            type="password"
            autocomplete="off"
            aria-describedby="hook-token-help${tokenProblem ? ' hook-token-error' : ''}"
            ${tokenProblem ? html`aria-invalid="true"` : null}
          />
          <p id="hook-token-help" class="help">
            Sent as <code>X-Gitlab-Token</code>; stored encrypted and never
            shown again${form ? ', so type it again here' : ''}.
          </p>
          ${tokenProblem}
        </div>
        <div class="field">
          <label class="checkbox"
            ><input
              type="checkbox"
              name="error_tracking_events"
              value="true"
              ${form && !form.errorTrackingEvents ? null : html`checked`}
            /><span
              ><strong>Error tracking events</strong
              ><span class="help"
                >New errors, regressions and frequent errors.</span
              ></span
            ></label
          >
        </div>
        <button type="submit" class="btn btn-confirm">Add webhook</button>`,
      { className: '' },
    )}
    ${
      hooks.length === 0
        ? html`<p class="empty">No webhooks.</p>`
        : hooks.map(
            ({ hook, attempts }) =>
              html`<article class="hook" aria-label="Webhook ${hook.url}">
                <div class="card-header">
                  <h3><code class="key">${hook.url}</code></h3>
                  <div class="actions">
                    ${
                      hook.errorTrackingEvents
                        ? html`<span class="badge badge-info"
                            >Error tracking events</span
                          >`
                        : html`<span class="badge badge-neutral">Paused</span>`
                    }
                    ${postForm(
                      ctx,
                      `${base}/hooks/${hook.id}/test`,
                      html`<button
                        type="submit"
                        class="btn btn-sm"
                        aria-label="Send test to ${hook.url}"
                      >
                        Send test
                      </button>`,
                    )}
                    ${postForm(
                      ctx,
                      `${base}/hooks/${hook.id}/delete`,
                      html`<button
                        type="submit"
                        class="btn btn-sm btn-danger"
                        aria-label="Delete webhook ${hook.url}"
                      >
                        Delete
                      </button>`,
                      {
                        confirm:
                          'Delete this webhook? It stops receiving alerts.',
                      },
                    )}
                  </div>
                </div>
                <h4>Recent deliveries</h4>
                ${deliveries(hook, attempts, view.now)}
              </article>`,
          )
    }
  </section>`;
}

function rulesCard(ctx: WebContext, base: string, rules: AlertRules): SafeHtml {
  return html`<section class="card" aria-labelledby="alert-rules">
    <div class="card-header"><h2 id="alert-rules">Alert rules</h2></div>
    <p class="muted">
      New errors and regressions always alert. A frequent error alerts once per
      window when it reaches the threshold; leave the threshold empty to turn
      that off.
    </p>
    ${postForm(
      ctx,
      `${base}/alerts`,
      html`<div class="field">
          <label for="frequent-threshold">Frequent: events</label>
          <input
            id="frequent-threshold"
            name="frequent_threshold"
            type="number"
            min="1"
            max="1000000"
            value="${rules.frequentThreshold ?? ''}"
          />
        </div>
        <div class="field">
          <label for="frequent-window">Within minutes</label>
          <input
            id="frequent-window"
            name="frequent_window_minutes"
            type="number"
            min="1"
            max="10080"
            required
            value="${rules.frequentWindowMinutes}"
          />
        </div>
        <button type="submit" class="btn btn-confirm">
          Save alert rules
        </button>`,
      { className: '' },
    )}
  </section>`;
}

function emailCard(ctx: WebContext, base: string, view: AlertsView): SafeHtml {
  return html`<section class="card" aria-labelledby="alert-email">
    <div class="card-header">
      <h2 id="alert-email">Your alert e-mails</h2>
      ${
        view.emailEnabled
          ? null
          : html`<span class="badge badge-neutral">E-mail alerts off</span>`
      }
    </div>
    ${
      view.emailEnabled
        ? html`<p class="muted">
            Members with the Developer role or higher get one e-mail per alert.
          </p>`
        : html`<p class="muted">
            This instance has no SMTP server configured (<code>SMTP_URL</code>),
            so no alert e-mails are sent. Your choice is kept for when it has.
          </p>`
    }
    ${postForm(
      ctx,
      `${base}/alert_email`,
      html`<div class="field">
          <label class="checkbox"
            ><input
              type="checkbox"
              name="email_alerts"
              value="on"
              ${view.optedOut ? null : html` checked`}
            /><span
              ><strong>E-mail me this project's alerts</strong></span
            ></label
          >
        </div>
        <button type="submit" class="btn">Save e-mail preference</button>`,
      { className: '' },
    )}
  </section>`;
}

/** The Alerts part of Settings > Monitor (ui.md). */
export function alertsSection(
  ctx: WebContext,
  base: string,
  view: AlertsView,
): SafeHtml {
  return html`<h2 class="section-title" id="alerts">Alerts</h2>
    ${view.hooks ? hooksCard(ctx, base, view) : null}
    ${view.rules ? rulesCard(ctx, base, view.rules) : null}
    ${emailCard(ctx, base, view)}`;
}

import { html } from '../../html/html';
import { page } from '../toolkit/layout';
import type { WebContext } from '../toolkit/web-context';
import { PASSWORD_PATH } from '../toolkit/web-paths';

export interface NewPasswordView {
  /** Per field, what is wrong with it. */
  readonly problems?: Readonly<Record<string, readonly string[]>>;
}

const LABELS: Readonly<Record<string, string>> = {
  current_password: 'Current password',
  password: 'New password',
  password_confirmation: 'Password confirmation',
};

function field(
  view: NewPasswordView,
  name: string,
  autocomplete: string,
  first: boolean,
) {
  const problems = view.problems?.[name];
  const id = `user_${name}`;
  return html`<div class="field">
    <label for="${id}">${LABELS[name] ?? name}</label>
    <input
      id="${id}"
      name="${name}"
      type="password"
      autocomplete="${autocomplete}"
      required
      ${problems ? html` aria-invalid="true" aria-describedby="${id}_error"` : null}
      ${first ? html` autofocus` : null}
    />
    ${
      problems
        ? html`<p class="help" id="${id}_error">
            ${name === 'current_password' ? problems.join(', ') : `${LABELS[name] ?? name} ${problems.join(', ')}`}
          </p>`
        : null
    }
  </div>`;
}

/**
 * `/-/profile/password/new`: GitLab's "Set up new password", shown before
 * anything else while the password is the generated one.
 */
export function newPasswordPage(
  ctx: WebContext,
  view: NewPasswordView,
): string {
  const invalid = Object.keys(view.problems ?? {});
  return page({
    title: 'Set up new password',
    ctx,
    body: html`<div class="auth">
      <h1 class="auth-title">Set up new password</h1>
      <p class="auth-lead">
        Please set a new password before proceeding. After a successful password
        update, you will be redirected to the sign-in page.
      </p>
      <form
        method="post"
        action="${PASSWORD_PATH}"
        class="card auth-card"
        novalidate
      >
        <input type="hidden" name="_csrf" value="${ctx.csrfToken}" />
        ${
          invalid.length > 0
            ? html`<div class="alert alert-danger" role="alert">
                The password was not changed.
              </div>`
            : null
        }
        ${field(view, 'current_password', 'current-password', invalid.length === 0 || invalid[0] === 'current_password')}
        ${field(view, 'password', 'new-password', invalid[0] === 'password')}
        ${field(view, 'password_confirmation', 'new-password', invalid[0] === 'password_confirmation')}
        <button type="submit" class="btn btn-confirm btn-block">
          Set new password
        </button>
      </form>
    </div>`,
  });
}

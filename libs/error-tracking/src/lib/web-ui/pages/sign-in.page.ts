import { html } from '../../html/html';
import { page } from '../toolkit/layout';
import { noticeBanner } from '../toolkit/notices';
import type { WebContext } from '../toolkit/web-context';
import { SIGN_IN_PATH } from '../toolkit/web-paths';

export interface SignInView {
  readonly username?: string;
  readonly redirectTo: string;
  readonly error?: string;
  /** `?notice=` after a redirect here (a changed password). */
  readonly notice?: unknown;
}

/** `/users/sign_in`: username and password, errors inline. */
export function signInPage(ctx: WebContext, view: SignInView): string {
  return page({
    title: 'Sign in',
    ctx,
    body: html`<div class="auth">
      <h1 class="auth-title">Sign in to Quitanda</h1>
      <p class="auth-lead">Error tracking for your projects.</p>
      <form
        method="post"
        action="${SIGN_IN_PATH}"
        class="card auth-card"
        novalidate
      >
        <input type="hidden" name="_csrf" value="${ctx.csrfToken}" />
        <input type="hidden" name="redirect_to" value="${view.redirectTo}" />
        ${view.error ? null : noticeBanner(view.notice)}
        ${
          view.error
            ? html`<div
                class="alert alert-danger"
                role="alert"
                id="sign-in-error"
              >
                ${view.error}
              </div>`
            : null
        }
        <div class="field">
          <label for="user_login">Username</label>
          <input
            id="user_login"
            name="username"
            type="text"
            autocomplete="username"
            autocapitalize="none"
            spellcheck="false"
            required
            value="${view.username ?? ''}"
            ${view.error ? html` aria-describedby="sign-in-error" aria-invalid="true"` : html` autofocus`}
          />
        </div>
        <div class="field">
          <label for="user_password">Password</label>
          <input
            id="user_password"
            name="password"
            type="password"
            autocomplete="current-password"
            required${view.error ? html` autofocus` : null}
          />
        </div>
        <button type="submit" class="btn btn-confirm btn-block">Sign in</button>
      </form>
      <p class="muted small auth-help">
        The first start prints where the <code>root</code> password is
        (<code>DATA_DIR/initial-credentials.json</code>).
      </p>
    </div>`,
  });
}

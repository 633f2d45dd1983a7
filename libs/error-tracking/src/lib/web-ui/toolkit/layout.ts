import { AccessLevel } from '../../common/error-tracking.constants';
import { html } from '../../html/html';
import type { HtmlValue, SafeHtml } from '../../html/html';
import { WEB_ASSETS } from './web-assets';
import type { WebContext } from './web-context';
import { SIGN_OUT_PATH } from './web-paths';

export type ProjectSection = 'errors' | 'issues' | 'settings';

/** What the project sidebar shows (a project record is one). */
export interface PageProject {
  readonly id: number;
  readonly name: string;
}

export interface PageOptions {
  readonly title: string;
  readonly ctx: WebContext;
  readonly project?: PageProject;
  /** The viewer's access level in `project`. */
  readonly accessLevel?: number;
  readonly section?: ProjectSection;
  /** Links above the heading, last one the current page. */
  readonly breadcrumbs?: ReadonlyArray<{ label: string; href?: string }>;
  readonly body: HtmlValue;
}

const LOGO = html`<svg
  class="logo"
  viewBox="0 0 32 32"
  width="28"
  height="28"
  aria-hidden="true"
  focusable="false"
>
  <path d="M16 3 4 9.5v13L16 29l12-6.5v-13L16 3Z" fill="#fc6d26"></path>
  <path d="M16 3v26l12-6.5v-13L16 3Z" fill="#e24329"></path>
  <path d="M10 14.5 16 11l6 3.5v5L16 23l-6-3.5v-5Z" fill="#fff"></path>
</svg>`;

/** A `<form method="post">` carrying the CSRF token. */
export function postForm(
  ctx: WebContext,
  action: string,
  content: HtmlValue,
  options: { className?: string; confirm?: string } = {},
): SafeHtml {
  return html`<form
    method="post"
    action="${action}"
    class="${options.className ?? 'inline-form'}"
    ${options.confirm ? html` data-confirm="${options.confirm}"` : null}
  >
    <input type="hidden" name="_csrf" value="${ctx.csrfToken}" />${content}
  </form>`;
}

function sidebar(
  project: PageProject,
  accessLevel: number,
  section?: ProjectSection,
): SafeHtml {
  const link = (key: ProjectSection, href: string, label: string) =>
    html`<li>
      <a
        href="${href}"
        ${key === section ? html` aria-current="page" class="active"` : null}
        >${label}</a
      >
    </li>`;
  const base = `/projects/${project.id}`;
  return html`<nav class="sidebar" aria-label="Project">
    <div class="sidebar-project">
      <span class="avatar" aria-hidden="true"
        >${project.name.slice(0, 1).toUpperCase()}</span
      ><span class="sidebar-project-name">${project.name}</span>
    </div>
    <p class="sidebar-heading">Monitor</p>
    <ul>
      ${link('errors', `${base}/error_tracking`, 'Error Tracking')}
    </ul>
    <p class="sidebar-heading">Plan</p>
    <ul>
      ${link('issues', `${base}/issues`, 'Issues')}
    </ul>
    ${
      // Developers reach Monitor settings for their alert e-mail choice.
      accessLevel >= AccessLevel.Developer
        ? html`<p class="sidebar-heading">Settings</p>
            <ul>
              ${link('settings', `${base}/settings/monitor`, 'Monitor')}
            </ul>`
        : null
    }
  </nav>`;
}

/** The page shell: header bar, project sidebar, breadcrumbs, main. */
export function page(options: PageOptions): string {
  const { ctx, project } = options;
  const user = ctx.session?.user;
  const crumbs = options.breadcrumbs ?? [];
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${options.title} · Quitanda</title>
        <link rel="icon" href="data:," />
        <link
          rel="stylesheet"
          href="/assets/ui.css?v=${WEB_ASSETS.css.version}"
        />
        <script src="/assets/ui.js?v=${WEB_ASSETS.js.version}" defer></script>
      </head>
      <body>
        <a class="skip-link" href="#main">Skip to main content</a>
        <header class="topbar">
          <a class="brand" href="/">${LOGO}<span>Quitanda</span></a>
          ${
            user
              ? html`<nav class="topbar-user" aria-label="Account">
                  <span class="topbar-username" title="${user.name}"
                    >@${user.username}</span
                  >${postForm(ctx, SIGN_OUT_PATH, html`<button type="submit" class="btn btn-ghost">Sign out</button>`)}
                </nav>`
              : null
          }
        </header>
        <div class="shell${project ? ' with-sidebar' : ''}">
          ${
            project
              ? sidebar(project, options.accessLevel ?? 0, options.section)
              : null
          }
          <main id="main" tabindex="-1">
            ${
              crumbs.length > 0
                ? html`<nav class="breadcrumbs" aria-label="Breadcrumb">
                    <ol>
                      ${crumbs.map((c, i) =>
                        c.href && i < crumbs.length - 1
                          ? html`<li><a href="${c.href}">${c.label}</a></li>`
                          : html`<li>
                              <span aria-current="page">${c.label}</span>
                            </li>`,
                      )}
                    </ol>
                  </nav>`
                : null
            }
            ${options.body}
          </main>
        </div>
      </body>
    </html> `.value;
}

/** The error pages (404, 403, 500) of UI paths. */
export function errorPage(
  status: number,
  heading: string,
  text: string,
  requestId: string,
): string {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${heading} (${status}) · Quitanda</title>
        <link rel="icon" href="data:," />
        <link
          rel="stylesheet"
          href="/assets/ui.css?v=${WEB_ASSETS.css.version}"
        />
      </head>
      <body>
        <header class="topbar">
          <a class="brand" href="/">${LOGO}<span>Quitanda</span></a>
        </header>
        <main id="main" class="error-page">
          <p class="error-code">${status}</p>
          <h1>${heading}</h1>
          <p>${text}</p>
          <p><a class="btn btn-confirm" href="/">Go to your projects</a></p>
          <p class="muted small">Request id <code>${requestId}</code></p>
        </main>
      </body>
    </html> `.value;
}

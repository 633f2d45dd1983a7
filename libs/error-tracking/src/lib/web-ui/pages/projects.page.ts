import { AccessLevel } from '../../common/error-tracking.constants';
import { html } from '../../html/html';
import type { SafeHtml } from '../../html/html';
import { page, postForm } from '../toolkit/layout';
import { noticeBanner } from '../toolkit/notices';
import { timeTag } from '../toolkit/relative-time';
import type { WebContext } from '../toolkit/web-context';
import type { ProjectAccess } from '../../projects/project.types';

export interface ProjectsView {
  readonly projects: ProjectAccess[];
  readonly total: number;
  readonly now: Date;
  readonly notice?: unknown;
  readonly name?: string;
  readonly error?: string;
}

/**
 * Whether tracking is on; when it is off, the way to turn it on for those
 * who may (Maintainers and above, as Settings > Monitor requires) and a
 * plain badge for everyone else, who would only meet a 403 there.
 */
function trackingState(
  projectId: number,
  active: boolean,
  accessLevel: number,
): SafeHtml {
  if (active)
    return html`<span class="badge badge-success">Error tracking on</span>`;
  if (accessLevel < AccessLevel.Maintainer)
    return html`<span class="badge badge-neutral">Error tracking off</span>`;
  return html`<a
    class="btn btn-sm"
    href="/projects/${projectId}/settings/monitor"
    >Enable error tracking</a
  >`;
}

/** `/`: the projects you are a member of, and a form to create one. */
export function projectsPage(ctx: WebContext, view: ProjectsView): string {
  const list =
    view.projects.length === 0
      ? html`<div class="card empty">
          <h2>No projects yet</h2>
          <p>
            Create a project to start tracking the errors of an application.
          </p>
        </div>`
      : html`<ul class="project-list">
          ${view.projects.map(
            ({ project: p, accessLevel }) =>
              html`<li>
                <span class="avatar" aria-hidden="true"
                  >${p.name.slice(0, 1).toUpperCase()}</span
                >
                <div class="project-main">
                  <a
                    class="project-name"
                    href="/projects/${p.id}/error_tracking"
                    >${p.name}</a
                  >
                  <div class="muted small">
                    ${p.path} · created ${timeTag(p.createdAt, view.now)}
                  </div>
                </div>
                ${trackingState(p.id, p.trackingActive, accessLevel)}
              </li>`,
          )}
        </ul>`;
  return page({
    title: 'Projects',
    ctx,
    body: html`${noticeBanner(view.notice)}
      <div class="page-header">
        <div>
          <h1>Projects</h1>
          <p class="subtitle">
            ${view.total} project${view.total === 1 ? '' : 's'} you are a member
            of
          </p>
        </div>
      </div>
      <div class="grid-2">
        <section aria-labelledby="your-projects">
          <h2 id="your-projects" class="visually-hidden">Your projects</h2>
          ${list}
        </section>
        <section class="card" aria-labelledby="new-project">
          <div class="card-header"><h2 id="new-project">New project</h2></div>
          ${postForm(
            ctx,
            '/projects',
            html`${view.error ? html`<div class="alert alert-danger" role="alert" id="project-error">${view.error}</div>` : null}
              <div class="field">
                <label for="project_name">Project name</label>
                <input
                  id="project_name"
                  name="name"
                  type="text"
                  required
                  maxlength="255"
                  value="${view.name ?? ''}"
                  ${view.error ? html` aria-invalid="true" aria-describedby="project-error"` : null}
                />
                <p class="help">
                  The path is derived from the name (<code>My App</code> →
                  <code>my-app</code>).
                </p>
              </div>
              <button type="submit" class="btn btn-confirm">
                Create project
              </button>`,
            { className: '' },
          )}
        </section>
      </div>`,
  });
}

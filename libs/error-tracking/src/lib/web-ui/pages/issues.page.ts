import type { ProjectRecord } from '../../projects/project.types';
import { html } from '../../html/html';
import type { SafeHtml } from '../../html/html';
import { page, postForm } from '../toolkit/layout';
import { renderMarkdown } from '../toolkit/markdown';
import { noticeBanner } from '../toolkit/notices';
import { timeTag } from '../toolkit/relative-time';
import type { WebContext } from '../toolkit/web-context';
import type { IssueRecord } from '../../issues/issue.types';

export type IssueStateFilter = 'opened' | 'closed' | 'all';

export interface IssueListView {
  readonly project: ProjectRecord;
  /** The viewer's access level (sidebar and buttons follow it). */
  readonly accessLevel: number;
  readonly state: IssueStateFilter;
  readonly issues: IssueRecord[];
  readonly total: number;
  readonly page: number;
  readonly perPage: number;
  readonly now: Date;
}

function stateBadge(issue: IssueRecord): SafeHtml {
  return html`<span class="issue-state ${issue.state}"
    >${issue.state === 'opened' ? 'Open' : 'Closed'}</span
  >`;
}

function crumbs(project: ProjectRecord, last?: string) {
  const issues = `/projects/${project.id}/issues`;
  return [
    { label: project.name, href: `/projects/${project.id}/error_tracking` },
    { label: 'Issues', href: issues },
    ...(last ? [{ label: last }] : []),
  ];
}

/** `/projects/:id/issues`: open / closed / all, newest first. */
export function issueListPage(ctx: WebContext, view: IssueListView): string {
  const { project } = view;
  const base = `/projects/${project.id}/issues`;
  const href = (state: IssueStateFilter, pageNo = 1) =>
    `${base}?state=${state}${pageNo > 1 ? `&page=${pageNo}` : ''}`;
  const tabs: Array<[IssueStateFilter, string]> = [
    ['opened', 'Open'],
    ['closed', 'Closed'],
    ['all', 'All'],
  ];
  const list =
    view.issues.length === 0
      ? html`<div class="card empty">
          <h2>No issues</h2>
          <p>
            Create one from an error: open it under Monitor › Error Tracking and
            choose “Create issue”.
          </p>
        </div>`
      : html`<div class="table-wrap">
          <table>
            <caption class="visually-hidden">
              Issues
            </caption>
            <thead>
              <tr>
                <th scope="col">Issue</th>
                <th scope="col">State</th>
                <th scope="col" class="hide-sm">Opened</th>
                <th scope="col">Updated</th>
              </tr>
            </thead>
            <tbody>
              ${view.issues.map(
                (issue) =>
                  html`<tr>
                    <td>
                      <a class="error-title" href="${base}/${issue.iid}"
                        >${issue.title}</a
                      >
                      <div class="culprit">#${issue.iid}</div>
                    </td>
                    <td>${stateBadge(issue)}</td>
                    <td class="nowrap hide-sm">
                      ${timeTag(issue.createdAt, view.now)}
                    </td>
                    <td class="nowrap">
                      ${timeTag(issue.updatedAt, view.now)}
                    </td>
                  </tr>`,
              )}
            </tbody>
          </table>
        </div>`;
  const pages = Math.max(1, Math.ceil(view.total / view.perPage));
  return page({
    title: `Issues · ${project.name}`,
    ctx,
    project,
    accessLevel: view.accessLevel,
    section: 'issues',
    breadcrumbs: crumbs(project),
    body: html`<div class="page-header">
        <div>
          <h1>Issues</h1>
          <p class="subtitle">
            ${view.total} issue${view.total === 1 ? '' : 's'}
          </p>
        </div>
      </div>
      <nav aria-label="Issue state">
        <ul class="tabs">
          ${tabs.map(
            ([state, label]) =>
              html`<li>
                <a
                  href="${href(state)}"
                  ${state === view.state ? html` aria-current="page"` : null}
                  >${label}</a
                >
              </li>`,
          )}
        </ul>
      </nav>
      ${list}
      <nav class="pagination" aria-label="Pages">
        ${view.page > 1 ? html`<a class="btn" rel="prev" href="${href(view.state, view.page - 1)}">Previous page</a>` : null}${view.page < pages ? html`<a class="btn" rel="next" href="${href(view.state, view.page + 1)}">Next page</a>` : null}
      </nav>`,
  });
}

export interface IssueView {
  readonly project: ProjectRecord;
  /** The viewer's access level (sidebar and buttons follow it). */
  readonly accessLevel: number;
  readonly issue: IssueRecord;
  readonly canEdit: boolean;
  readonly now: Date;
  readonly notice?: unknown;
}

/** One issue: its Markdown description (sanitised), close and reopen. */
export function issuePage(ctx: WebContext, view: IssueView): string {
  const { project, issue } = view;
  const action = `/projects/${project.id}/issues/${issue.iid}/state`;
  return page({
    title: `${issue.title} (#${issue.iid}) · Issues · ${project.name}`,
    ctx,
    project,
    accessLevel: view.accessLevel,
    section: 'issues',
    breadcrumbs: crumbs(project, `#${issue.iid}`),
    body: html`${noticeBanner(view.notice)}
      <div class="page-header">
        <div>
          <h1>${issue.title}</h1>
          <p class="subtitle">
            ${stateBadge(issue)} Issue #${issue.iid} · opened
            ${timeTag(issue.createdAt, view.now)}${issue.closedAt ? html` · closed ${timeTag(issue.closedAt, view.now)}` : null}
          </p>
        </div>
        ${
          view.canEdit
            ? html`<div class="actions">
                ${postForm(
                  ctx,
                  action,
                  html`<input
                      type="hidden"
                      name="state_event"
                      value="${issue.state === 'opened' ? 'close' : 'reopen'}"
                    /><button
                      type="submit"
                      class="btn${issue.state === 'opened' ? '' : ' btn-confirm'}"
                    >
                      ${issue.state === 'opened' ? 'Close issue' : 'Reopen issue'}
                    </button>`,
                )}
              </div>`
            : null
        }
      </div>
      <section class="card description" aria-label="Description">
        ${issue.description ? renderMarkdown(issue.description) : html`<p class="muted">No description.</p>`}
      </section>
      ${
        issue.labels.length > 0
          ? html`<ul class="tags" aria-label="Labels">
              ${issue.labels.map((label) => html`<li class="tag"><span class="tag-value">${label}</span></li>`)}
            </ul>`
          : null
      }`,
  });
}

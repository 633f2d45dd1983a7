import type { ProjectRecord } from '../../projects/project.types';
import type { HtmlValue } from '../../html/html';
import { page } from '../toolkit/layout';
import type { WebContext } from '../toolkit/web-context';

/** What every Error Tracking page knows of its project and viewer. */
export interface ErrorTrackingPageView {
  readonly project: ProjectRecord;
  /** The viewer's access level in the project. */
  readonly accessLevel: number;
}

/**
 * A page of Monitor > Error Tracking: the project's sidebar on Errors, and
 * breadcrumbs from the project (which links to the error list) to `crumbs`.
 */
export function errorTrackingPage(
  ctx: WebContext,
  view: ErrorTrackingPageView,
  title: string,
  crumbs: ReadonlyArray<{ label: string; href?: string }>,
  body: HtmlValue,
): string {
  const { project } = view;
  return page({
    title,
    ctx,
    project,
    accessLevel: view.accessLevel,
    section: 'errors',
    breadcrumbs: [
      { label: project.name, href: `/projects/${project.id}/error_tracking` },
      ...crumbs,
    ],
    body,
  });
}

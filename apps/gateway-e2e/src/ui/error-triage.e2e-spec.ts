import type { Browser, Page } from 'playwright-core';

import {
  createTrackedProject,
  startErrorTrackingGateway,
  statusesByTitle,
  storeEvent,
} from '../error-tracking/error-tracking-support';
import type { ErrorTrackingGateway } from '../error-tracking/error-tracking-support';
import { rootPassword } from '../error-tracking/web-support';
import {
  launchChromium,
  screenshot,
  seriousAxeViolations,
  signIn,
} from './browser-support';

/**
 * Triage from the error list in Chromium: a selection resolved, ignoring
 * until one more event (which reopens it), "all matching" confirmed first,
 * a merge that asks which error to keep; axe and a 375 px screen.
 */
describe('error triage from the list (Chromium e2e)', () => {
  let gw: ErrorTrackingGateway;
  let browser: Browser;
  let password = '';
  let eventNumber = 0;

  async function newPage(width = 1280, height = 800): Promise<Page> {
    const context = await browser.newContext({ viewport: { width, height } });
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    await signIn(page, gw.url, 'root', password);
    return page;
  }

  async function projectWith(
    ...titles: string[]
  ): Promise<{ id: number; publicKey: string }> {
    const project = await createTrackedProject(gw);
    for (const title of titles) await send(project, title);
    return project;
  }

  async function send(
    project: { id: number; publicKey: string },
    message: string,
  ): Promise<void> {
    eventNumber += 1;
    const res = await storeEvent(gw, project.id, project.publicKey, {
      event_id: eventNumber.toString(16).padStart(32, 'b'),
      message,
    });
    expect(res.status).toBe(200);
  }

  const statuses = (projectId: number) => statusesByTitle(gw, projectId);

  /** Clicks a button that submits a form and waits for the page it leads to. */
  async function submit(page: Page, name: string): Promise<void> {
    await Promise.all([
      page.waitForNavigation(),
      page.getByRole('button', { name, exact: true }).click(),
    ]);
  }

  beforeAll(async () => {
    gw = await startErrorTrackingGateway();
    browser = await launchChromium();
    password = await rootPassword(gw);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await gw?.close();
  });

  it('resolves the rows ticked and leaves the others open', async () => {
    const project = await projectWith('cart lost', 'price wrong', 'slow page');
    const page = await newPage();
    await page.goto(`${gw.url}/projects/${project.id}/error_tracking`);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.getByLabel('Select cart lost').check();
    await page.getByLabel('Select price wrong').check();
    await screenshot(page, 'triage-selection');
    await submit(page, 'Resolve');
    await page
      .getByText('The selected errors were marked as resolved.')
      .waitFor();
    expect(await page.getByRole('link', { name: 'slow page' }).count()).toBe(1);
    expect(await page.getByRole('link', { name: 'cart lost' }).count()).toBe(0);
    expect(await statuses(project.id)).toEqual({
      'cart lost': 'resolved',
      'price wrong': 'resolved',
      'slow page': 'unresolved',
    });
    await page.context().close();
  });

  it('ignores an error until one more event, and that event reopens it', async () => {
    const project = await projectWith('quota exceeded', 'disk full');
    const page = await newPage();
    await page.goto(`${gw.url}/projects/${project.id}/error_tracking`);
    await page.getByLabel('Select quota exceeded').check();
    await page
      .getByLabel('Ignore')
      .selectOption({ label: 'Until 1 more event' });
    await submit(page, 'Ignore');
    await page.getByText('The selected errors are now ignored.').waitFor();
    await page.getByRole('link', { name: 'Ignored', exact: true }).click();
    await page.getByText('Reopens after 1 more event').waitFor();
    await page.getByRole('link', { name: 'quota exceeded' }).click();
    await page.getByText('Reopens after 1 more event').waitFor();
    expect(await statuses(project.id)).toEqual({
      'quota exceeded': 'ignored',
      'disk full': 'unresolved',
    });
    await send(project, 'quota exceeded');
    await page.goto(`${gw.url}/projects/${project.id}/error_tracking`);
    expect(
      await page.getByRole('link', { name: 'quota exceeded' }).count(),
    ).toBe(1);
    expect(await statuses(project.id)).toEqual({
      'quota exceeded': 'unresolved',
      'disk full': 'unresolved',
    });
    await page.context().close();
  });

  it('ignores an error for 30 minutes from its page, which says when it reopens', async () => {
    const project = await projectWith('cache cold');
    const page = await newPage();
    await page.goto(`${gw.url}/projects/${project.id}/error_tracking`);
    await page.getByRole('link', { name: 'cache cold' }).click();
    await page.getByLabel('Ignore').selectOption({ label: 'For 30 minutes' });
    await submit(page, 'Ignore');
    await page.getByText('The error is now ignored.').waitFor();
    await page.getByText('Reopens after 30 minutes').waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await screenshot(page, 'triage-detail-ignored');
    const [row] = await gw.query<{ status: string; minutes: number }>(
      `SELECT status, round(extract(epoch FROM ignored_until - updated_at) / 60)::int AS minutes
         FROM error_tracking.errors WHERE project_id = $1`,
      [project.id],
    );
    expect(row).toEqual({ status: 'ignored', minutes: 30 });
    await page.context().close();
  });

  it('changes every error a search takes only once that is confirmed', async () => {
    const project = await projectWith(
      'timeout in cart',
      'timeout in search',
      'cart lost',
    );
    const page = await newPage();
    await page.goto(
      `${gw.url}/projects/${project.id}/error_tracking?search=timeout`,
    );
    await page.getByLabel('All errors matching this search').check();
    await submit(page, 'Resolve');
    await page.getByRole('heading', { name: 'Resolve 2 errors?' }).waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await screenshot(page, 'triage-confirm-all');
    // Nothing changed before the confirmation.
    expect(await statuses(project.id)).toEqual({
      'timeout in cart': 'unresolved',
      'timeout in search': 'unresolved',
      'cart lost': 'unresolved',
    });
    await submit(page, 'Resolve 2 errors');
    await page
      .getByText('The selected errors were marked as resolved.')
      .waitFor();
    expect(await statuses(project.id)).toEqual({
      'timeout in cart': 'resolved',
      'timeout in search': 'resolved',
      'cart lost': 'unresolved',
    });
    await page.context().close();
  });

  it('merges the rows ticked into the one chosen to keep', async () => {
    const project = await projectWith('kept', 'merged away');
    await send(project, 'kept');
    const page = await newPage();
    await page.goto(`${gw.url}/projects/${project.id}/error_tracking`);
    await page.getByLabel('Select kept').check();
    await page.getByLabel('Select merged away').check();
    await submit(page, 'Merge');
    await page.getByRole('heading', { name: 'Merge 2 errors' }).waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await screenshot(page, 'triage-merge');
    // The most frequent is offered first.
    expect(await page.getByLabel(/^kept/).isChecked()).toBe(true);
    await submit(page, 'Merge 2 errors');
    await page.getByText('The errors were merged into this one.').waitFor();
    const rows = await gw.query<{ title: string; count: string }>(
      'SELECT title, count::text FROM error_tracking.errors WHERE project_id = $1',
      [project.id],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]?.count).toBe('3');
    await send(project, 'merged away');
    const [after] = await gw.query<{ count: string }>(
      'SELECT count::text FROM error_tracking.errors WHERE project_id = $1',
      [project.id],
    );
    expect(after?.count).toBe('4');
    await page.context().close();
  });

  it('fits the list with its triage bar and the confirmation pages into 375 px', async () => {
    const project = await projectWith('first', 'second');
    const page = await newPage(375, 812);
    const fits = async (name: string) => {
      const width = await page.evaluate<number>(
        'document.documentElement.scrollWidth',
      );
      if (width > 375) throw new Error(`${name} is ${width} px wide at 375 px`);
      await screenshot(page, `phone-${name}`);
      expect(await seriousAxeViolations(page)).toEqual([]);
    };
    await page.goto(`${gw.url}/projects/${project.id}/error_tracking`);
    await fits('triage-list');
    await page.getByLabel('Select first').check();
    await page.getByLabel('Select second').check();
    await submit(page, 'Merge');
    await fits('triage-merge');
    await page.goto(`${gw.url}/projects/${project.id}/error_tracking`);
    await page.getByLabel('All errors matching this search').check();
    await submit(page, 'Ignore');
    await fits('triage-confirm-all');
    await page.context().close();
  });
});

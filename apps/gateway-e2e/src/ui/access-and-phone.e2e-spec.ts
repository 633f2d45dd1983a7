import type { Browser, Page } from 'playwright-core';

import {
  ROOT_TOKEN,
  createTrackedProject,
  createUser,
  startErrorTrackingGateway,
} from '../error-tracking/error-tracking-support';
import type { ErrorTrackingGateway } from '../error-tracking/error-tracking-support';
import { rootPassword } from '../error-tracking/web-support';
import {
  expectNoSidewaysScroll,
  launchChromium,
  screenshot,
  seriousAxeViolations,
  signIn,
} from './browser-support';

const INJECTED =
  '<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2">';

describe('error tracking in the browser: access, forged forms, injection, phone width (Chromium e2e)', () => {
  let gw: ErrorTrackingGateway;
  let browser: Browser;
  let project: { id: number; dsn: string; publicKey: string };
  let errorId = '';

  async function newPage(width: number, height: number): Promise<Page> {
    const context = await browser.newContext({ viewport: { width, height } });
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    return page;
  }

  beforeAll(async () => {
    gw = await startErrorTrackingGateway();
    browser = await launchChromium();
    project = await createTrackedProject(gw);
    await gw.http
      .post(
        `/api/v4/error_tracking/collector/api/${project.id}/store?sentry_key=${project.publicKey}`,
      )
      .set('Content-Type', 'application/json')
      .send({
        event_id: 'f'.repeat(32),
        platform: 'javascript',
        environment: 'staging',
        exception: {
          values: [
            {
              type: 'Error',
              value: INJECTED,
              stacktrace: {
                frames: [
                  {
                    filename: 'app/checkout.js',
                    function: 'submit',
                    lineno: 42,
                    pre_context: ['function submit(form) {'],
                    context_line: `  el.innerHTML = '${INJECTED}';`,
                    post_context: ['}'],
                    in_app: true,
                  },
                ],
              },
            },
          ],
        },
      })
      .expect(200);
    const [row] = await gw.query<{ id: string }>(
      'SELECT id::text AS id FROM error_tracking.errors WHERE project_id = $1',
      [project.id],
    );
    errorId = row?.id ?? '';
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await gw?.close();
  });

  it('shows a non-member the 404 page for every page of the project', async () => {
    const user = await createUser(gw);
    const page = await newPage(1280, 800);
    await signIn(page, gw.url, user.username, 'correct horse battery');
    for (const path of [
      `/projects/${project.id}/error_tracking`,
      `/projects/${project.id}/error_tracking/${errorId}`,
      `/projects/${project.id}/error_tracking/${errorId}/events`,
      `/projects/${project.id}/error_tracking/${errorId}/events/${'f'.repeat(32)}`,
      `/projects/${project.id}/settings/monitor`,
      `/projects/${project.id}/issues`,
    ]) {
      const response = await page.goto(`${gw.url}${path}`);
      expect(response?.status()).toBe(404);
      expect(
        await page.getByRole('heading', { name: 'Page not found' }).isVisible(),
      ).toBe(true);
    }
    await screenshot(page, 'not-found');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.context().close();
  });

  it('refuses a form whose CSRF token was removed (403) and changes nothing', async () => {
    const page = await newPage(1280, 800);
    await signIn(page, gw.url, 'root', await rootPassword(gw));
    await page.goto(`${gw.url}/projects/${project.id}/settings/monitor`);
    const form = page.locator(
      `form[action="/projects/${project.id}/settings/monitor"]`,
    );
    await form
      .locator('input[name="_csrf"]')
      .evaluate((input) => input.remove());
    await page.getByLabel('Active').uncheck();
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST'),
      page.getByRole('button', { name: 'Save changes' }).click(),
    ]);
    expect(response.status()).toBe(403);
    await page.getByRole('heading', { name: 'Access denied' }).waitFor();
    expect(await page.getByText('Nothing was changed.').isVisible()).toBe(true);
    await screenshot(page, 'forbidden-csrf');
    expect(await seriousAxeViolations(page)).toEqual([]);
    const settings = await gw.http
      .get(`/api/v4/projects/${project.id}/error_tracking/settings`)
      .set('PRIVATE-TOKEN', ROOT_TOKEN)
      .expect(200);
    expect(settings.body.active).toBe(true);
    await page.context().close();
  });

  it('shows script injected in an error message as text and never runs it', async () => {
    const page = await newPage(1280, 800);
    await signIn(page, gw.url, 'root', await rootPassword(gw));
    await page.goto(`${gw.url}/projects/${project.id}/error_tracking`);
    expect(
      await page.getByRole('link', { name: `Error: ${INJECTED}` }).isVisible(),
    ).toBe(true);
    await page.goto(
      `${gw.url}/projects/${project.id}/error_tracking/${errorId}`,
    );
    expect(
      await page
        .getByRole('heading', { name: `Error: ${INJECTED}` })
        .isVisible(),
    ).toBe(true);
    expect(await page.locator('li.current .code').innerText()).toBe(
      `  el.innerHTML = '${INJECTED}';`,
    );
    expect(await page.evaluate('typeof window.__pwned')).toBe('undefined');
    expect(await page.locator('main img, main script').count()).toBe(0);
    await page.getByRole('button', { name: 'Create issue' }).click();
    await page.waitForURL(/\/issues\/\d+/);
    expect(await page.evaluate('typeof window.__pwned')).toBe('undefined');
    expect(
      await page.locator('.description img, .description script').count(),
    ).toBe(0);
    await page.context().close();
  });

  it('fits every page into a 375 px wide phone screen', async () => {
    const page = await newPage(375, 812);
    await page.goto(`${gw.url}/users/sign_in`);
    const pages: Array<[string, string]> = [['sign-in', '/users/sign_in']];
    expect(
      await page.evaluate('document.documentElement.scrollWidth'),
    ).toBeLessThanOrEqual(375);
    await screenshot(page, 'phone-sign-in');
    await signIn(page, gw.url, 'root', await rootPassword(gw));
    pages.push(
      ['projects', '/'],
      ['settings-monitor', `/projects/${project.id}/settings/monitor`],
      ['error-list', `/projects/${project.id}/error_tracking`],
      ['error-detail', `/projects/${project.id}/error_tracking/${errorId}`],
      ['issues', `/projects/${project.id}/issues?state=all`],
      ['issue', `/projects/${project.id}/issues/1`],
    );
    for (const [name, path] of pages.slice(1)) {
      const response = await page.goto(`${gw.url}${path}`);
      expect(response?.status()).toBe(200);
      await expectNoSidewaysScroll(page, name, 375);
      await screenshot(page, `phone-${name}`);
      expect(await seriousAxeViolations(page)).toEqual([]);
    }
    await page.context().close();
  });
});

import type { Browser, Page } from 'playwright-core';

import {
  ROOT_TOKEN,
  createTrackedProject,
  createMember,
  startErrorTrackingGateway,
} from '../error-tracking/error-tracking-support';
import type { ErrorTrackingGateway } from '../error-tracking/error-tracking-support';
import { rootPassword } from '../error-tracking/web-support';
import {
  launchChromium,
  screenshot,
  seriousAxeViolations,
  signIn,
} from './browser-support';

/** What Chromium sends when a person opens a link. */
const BROWSER_ACCEPT =
  'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

/**
 * Section headings (card headers, section titles) that are not whole on
 * one line inside the screen: wrapped word by word because something
 * beside them took the room, pushed out of the screen, or clipped.
 */
function cutHeadings(page: Page): Promise<string[]> {
  return page.evaluate(`[...document.querySelectorAll(
      'main .card-header h2, main .card-header h3, main .section-title, main .snippet h3',
    )].filter((heading) => {
      const range = document.createRange();
      range.selectNodeContents(heading);
      const lines = new Set(
        [...range.getClientRects()].map((rect) => Math.round(rect.top)),
      ).size;
      const box = heading.getBoundingClientRect();
      return (
        lines !== 1 ||
        box.left < 0 ||
        box.right > window.innerWidth ||
        heading.scrollWidth > heading.clientWidth
      );
    }).map((heading) => heading.textContent.trim())`);
}

/** Chart texts that reach outside their SVG (drawn cut off). */
function cutChartLabels(page: Page): Promise<string[]> {
  return page.evaluate(`[...document.querySelectorAll('svg.bar-chart')].flatMap((svg) => {
      const frame = svg.getBoundingClientRect();
      return [...svg.querySelectorAll('text')]
        .filter((text) => {
          const box = text.getBoundingClientRect();
          return (
            box.left < frame.left - 0.5 ||
            box.right > frame.right + 0.5 ||
            box.top < frame.top - 0.5 ||
            box.bottom > frame.bottom + 0.5
          );
        })
        .map((text) => text.textContent.trim());
    })`);
}

describe('pages a newcomer does not stumble on (Chromium e2e)', () => {
  let gw: ErrorTrackingGateway;
  let browser: Browser;
  let project: { id: number; dsn: string; publicKey: string };
  const problems: string[] = [];

  async function newPage(width: number, height = 900): Promise<Page> {
    const context = await browser.newContext({ viewport: { width, height } });
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    page.on('pageerror', (error) => problems.push(error.message));
    return page;
  }

  async function signedIn(width: number): Promise<Page> {
    const page = await newPage(width);
    await signIn(page, gw.url, 'root', await rootPassword(gw));
    return page;
  }

  beforeAll(async () => {
    gw = await startErrorTrackingGateway();
    browser = await launchChromium();
    project = await createTrackedProject(gw);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await gw?.close();
  });

  afterEach(() => expect(problems.splice(0)).toEqual([]));

  it('shows an enabled project without errors its DSN and a snippet with it for each main SDK, each copyable', async () => {
    const page = await signedIn(1280);
    await page.goto(`${gw.url}/projects/${project.id}/error_tracking`);
    const setup = page.getByRole('region', { name: 'Send your first error' });
    expect(await setup.getByLabel('DSN', { exact: true }).inputValue()).toBe(
      project.dsn,
    );
    for (const sdk of ['JavaScript (browser)', 'Node.js', 'Python', 'Go']) {
      const snippet = setup.getByRole('region', { name: sdk });
      expect(await snippet.locator('pre').innerText()).toContain(project.dsn);
      expect(
        await snippet.getByRole('button', { name: `Copy ${sdk}` }).count(),
      ).toBe(1);
    }
    await page
      .context()
      .grantPermissions(['clipboard-read', 'clipboard-write'], {
        origin: gw.url,
      });
    await setup.getByRole('button', { name: 'Copy Python' }).click();
    await setup.getByRole('button', { name: 'Copied' }).waitFor();
    expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe(
      await setup.locator('#snippet-python').innerText(),
    );
    await screenshot(page, 'first-error-setup');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.context().close();

    // The keys are maintainers' (as on Settings > Monitor): a developer
    // sees the plain empty list.
    const developer = await createMember(gw, project.id, 30);
    const devPage = await newPage(1280);
    await signIn(devPage, gw.url, developer.username, 'correct horse battery');
    await devPage.goto(`${gw.url}/projects/${project.id}/error_tracking`);
    await devPage
      .getByText('Errors your application reports appear here.')
      .waitFor();
    expect(await devPage.content()).not.toContain(project.publicKey);
    await devPage.context().close();
  });

  it('answers a browser on an unknown page with the HTML 404 page, and API clients in their context’s own format', async () => {
    const page = await newPage(1280);
    const response = await page.goto(`${gw.url}/no/such/page`);
    expect(response?.status()).toBe(404);
    expect(response?.headers()['content-type']).toMatch(/^text\/html/);
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    await screenshot(page, 'unknown-page');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.context().close();

    const platform = await gw.http.get('/no/such/page').expect(404);
    expect(platform.body).toMatchObject({
      statusCode: 404,
      error: 'route_not_found',
    });
    // An API path keeps its context's format even for a browser.
    const gitlab = await gw.http
      .get('/api/v4/no/such/route')
      .set('Accept', BROWSER_ACCEPT)
      .expect(404);
    expect(gitlab.body).toEqual({ error: '404 Not Found' });
    const events = await gw.http
      .get('/events/no/such/route')
      .set('Accept', BROWSER_ACCEPT)
      .expect(404);
    expect(events.headers['content-type']).toMatch(
      /^application\/problem\+json/,
    );
    const kinvey = await gw.http
      .get('/appdata/')
      .set('Accept', BROWSER_ACCEPT)
      .expect(404);
    expect(Object.keys(kinvey.body).sort()).toEqual([
      'debug',
      'description',
      'error',
    ]);
    const api = await gw.http
      .get('/api/no/such/route')
      .set('Accept', BROWSER_ACCEPT)
      .expect(404);
    expect(api.headers['content-type']).toMatch(/json/);
  });

  it('keeps a refused webhook URL in the form and explains it inline, naming ALERTS_ALLOW_LOCAL_TARGETS', async () => {
    const page = await signedIn(1280);
    await page.goto(`${gw.url}/projects/${project.id}/settings/monitor`);
    const target = 'http://127.0.0.1:9/hooks/errors';
    await page.getByLabel('URL', { exact: true }).fill(target);
    await page.getByLabel('Error tracking events').uncheck();
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST'),
      page.getByRole('button', { name: 'Add webhook' }).click(),
    ]);
    expect(response.status()).toBe(422);
    const url = page.getByLabel('URL', { exact: true });
    expect(await url.inputValue()).toBe(target);
    expect(await url.getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByLabel('Error tracking events').isChecked()).toBe(
      false,
    );
    const problem = page.locator('#hook-url-error');
    expect(await problem.innerText()).toMatch(
      /^URL is blocked: Requests to the local network are not allowed\..*ALERTS_ALLOW_LOCAL_TARGETS=true/s,
    );
    await screenshot(page, 'webhook-refused');
    expect(await seriousAxeViolations(page)).toEqual([]);
    const hooks = await gw.http
      .get(`/api/v4/projects/${project.id}/hooks`)
      .set('PRIVATE-TOKEN', ROOT_TOKEN)
      .expect(200);
    expect(hooks.body).toEqual([]);
    await page.context().close();
  });

  it('keeps section headings on their line and the chart labels whole at 375 px (and the chart at 1280)', async () => {
    const busy = await createTrackedProject(gw);
    // 120 events of one error in this hour: a three-digit peak on the y axis.
    for (let batch = 0; batch < 12; batch += 1)
      await Promise.all(
        Array.from({ length: 10 }, () =>
          gw.http
            .post(
              `/api/v4/error_tracking/collector/api/${busy.id}/store?sentry_key=${busy.publicKey}`,
            )
            .set('Content-Type', 'application/json')
            .send({
              platform: 'python',
              exception: {
                values: [{ type: 'ValueError', value: 'Card declined' }],
              },
            })
            .expect(200),
        ),
      );
    const [row] = await gw.query<{ id: string }>(
      'SELECT id::text AS id FROM error_tracking.errors WHERE project_id = $1',
      [busy.id],
    );
    const page = await signedIn(375);
    for (const [name, path] of [
      ['monitor', `/projects/${busy.id}/settings/monitor`],
      ['list', `/projects/${busy.id}/error_tracking`],
      ['detail', `/projects/${busy.id}/error_tracking/${row?.id}`],
      ['first-error', `/projects/${project.id}/error_tracking`],
      ['projects', '/'],
      ['issues', `/projects/${busy.id}/issues`],
    ]) {
      await page.goto(`${gw.url}${path}`);
      await screenshot(page, `phone-375-${name}`);
      expect({ name, cut: await cutHeadings(page) }).toEqual({ name, cut: [] });
      expect(await seriousAxeViolations(page)).toEqual([]);
      if (name === 'list')
        // A project that has had errors is past its first-error setup.
        expect(
          await page
            .getByRole('region', { name: 'Send your first error' })
            .count(),
        ).toBe(0);
      if (name === 'detail') {
        expect(await page.locator('svg.bar-chart text').count()).toBe(7);
        expect(await cutChartLabels(page)).toEqual([]);
      }
    }
    // The desktop chart draws the same labels smaller, in the same room.
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${gw.url}/projects/${busy.id}/error_tracking/${row?.id}`);
    expect(await cutChartLabels(page)).toEqual([]);
    await screenshot(page, 'error-detail-chart-3-digits');
    await page.context().close();
  });
});

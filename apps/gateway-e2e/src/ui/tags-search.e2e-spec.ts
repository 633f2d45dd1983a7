import type { Browser, Page } from 'playwright-core';

import {
  ROOT_TOKEN,
  createTrackedProject,
  startErrorTrackingGateway,
  storeEvent,
} from '../error-tracking/error-tracking-support';
import type { ErrorTrackingGateway } from '../error-tracking/error-tracking-support';
import { rootPassword } from '../error-tracking/web-support';
import {
  launchChromium,
  reportWithSentrySdk,
  screenshot,
  seriousAxeViolations,
  signIn,
} from './browser-support';

interface ApiTagKey {
  key: string;
  total: number;
  top_values: Array<{ value: string; count: number; share: number }>;
}

describe('error tracking in the browser: tag distribution and search (Chromium e2e)', () => {
  let gw: ErrorTrackingGateway;
  let browser: Browser;
  let project: { id: number; dsn: string; publicKey: string };
  let sdkErrorId = '';

  async function newPage(width: number, height: number): Promise<Page> {
    const context = await browser.newContext({ viewport: { width, height } });
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    return page;
  }

  function thrown(n: number, type: string, fields: Record<string, unknown>) {
    return {
      event_id: n.toString(16).padStart(32, 'b'),
      platform: 'javascript',
      exception: {
        values: [
          {
            type,
            value: `${type} in the shop`,
            stacktrace: { frames: [{ function: type, filename: 'shop.js' }] },
          },
        ],
      },
      ...fields,
    };
  }

  beforeAll(async () => {
    gw = await startErrorTrackingGateway();
    browser = await launchChromium();
    project = await createTrackedProject(gw);
    // A real SDK's events: its runtime and OS contexts become tags.
    await reportWithSentrySdk(project.dsn, 3);
    const firefox = { browser: { name: 'Firefox', version: '121.0' } };
    const chrome = { browser: { name: 'Chrome', version: '120.0' } };
    for (const event of [
      thrown(1, 'CartError', { environment: 'production', contexts: chrome }),
      thrown(2, 'CartError', { environment: 'production', contexts: firefox }),
      thrown(3, 'CartError', { environment: 'production', contexts: firefox }),
      thrown(4, 'SearchError', { environment: 'staging', contexts: firefox }),
      // PayError: 2 in production, 1 in staging, no browser.
      thrown(5, 'PayError', { environment: 'production' }),
      thrown(6, 'PayError', { environment: 'production' }),
      thrown(7, 'PayError', { environment: 'staging' }),
    ])
      expect(
        (await storeEvent(gw, project.id, project.publicKey, event)).status,
      ).toBe(200);
    const [row] = await gw.query<{ id: string }>(
      `SELECT id::text AS id FROM error_tracking.errors
        WHERE project_id = $1 AND type = 'RangeError'`,
      [project.id],
    );
    sdkErrorId = row?.id ?? '';
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await gw?.close();
  });

  it("shows each tag's top values with the API's counts and shares", async () => {
    const api = await gw.http
      .get(
        `/api/v4/projects/${project.id}/error_tracking/errors/${sdkErrorId}/tags`,
      )
      .set('PRIVATE-TOKEN', ROOT_TOKEN)
      .expect(200);
    const keys = api.body as ApiTagKey[];
    // The SDK's runtime and user were derived into tags.
    expect(keys.map((k) => k.key)).toEqual(
      expect.arrayContaining(['runtime', 'runtime.name', 'user', 'release']),
    );
    expect(keys.find((k) => k.key === 'user')?.top_values).toEqual([
      expect.objectContaining({ value: 'id:customer-1', count: 2 }),
      expect.objectContaining({ value: 'id:customer-0', count: 1 }),
    ]);

    const page = await newPage(1280, 900);
    await signIn(page, gw.url, 'root', await rootPassword(gw));
    await page.goto(
      `${gw.url}/projects/${project.id}/error_tracking/${sdkErrorId}`,
    );
    await page.getByRole('heading', { name: 'Tag distribution' }).waitFor();
    const shown = await page.$$eval('section.tag-dist-key', (sections) =>
      sections.map((section) => ({
        key: section.getAttribute('data-tag-key'),
        values: [...section.querySelectorAll('li')].map((li) => [
          li.getAttribute('data-tag-value'),
          li.querySelector('.tag-dist-count')?.textContent?.trim(),
          li.querySelector('.tag-dist-share')?.textContent?.trim(),
        ]),
      })),
    );
    expect(shown).toEqual(
      keys.map((key) => ({
        key: key.key,
        values: key.top_values.map((v) => [
          v.value,
          String(v.count),
          `${Math.round(v.share * 100)}%`,
        ]),
      })),
    );
    await page.getByRole('heading', { name: 'Last 30 days' }).waitFor();
    await screenshot(page, 'tag-distribution');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.context().close();
  });

  it('searches the list with tags and negation, and counts under a picked environment', async () => {
    const page = await newPage(1280, 900);
    await signIn(page, gw.url, 'root', await rootPassword(gw));
    await page.goto(`${gw.url}/projects/${project.id}/error_tracking`);
    const search = page.getByRole('searchbox', { name: 'Search' });
    await search.fill('browser.name:Firefox !environment:staging');
    await search.press('Enter');
    await page.waitForURL(/query=/);
    const titles = () => page.locator('a.error-title').allInnerTexts();
    await expect(titles()).resolves.toEqual([
      'CartError: CartError in the shop',
    ]);

    await search.fill('has:browser');
    await search.press('Enter');
    await page.waitForURL(/has%3Abrowser/);
    await expect(titles().then((t) => t.sort())).resolves.toEqual([
      'CartError: CartError in the shop',
      'SearchError: SearchError in the shop',
    ]);
    await screenshot(page, 'error-list-search');
    expect(await seriousAxeViolations(page)).toEqual([]);

    // A bad query is told beside the box, with nothing listed.
    await search.fill('is:pending');
    await search.press('Enter');
    await page.waitForURL(/is%3Apending/);
    expect(await page.getByRole('alert').innerText()).toContain(
      'is:pending is not a status',
    );
    expect(await page.locator('a.error-title').count()).toBe(0);
    expect(await seriousAxeViolations(page)).toEqual([]);

    // The environment picker: the rows count that environment's events.
    await page.goto(
      `${gw.url}/projects/${project.id}/error_tracking?environment=production&query=${encodeURIComponent('browser.name:Firefox')}`,
    );
    const header = await page.locator('thead th.num').first().innerText();
    expect(header.replace(/\s+/g, ' ')).toBe('Events (environment production)');
    const cells = await page.locator('tbody tr td.num').first().innerText();
    expect(cells.trim()).toBe('3');
    // With another picker as well, the rows still count the environment's.
    await page.goto(
      `${gw.url}/projects/${project.id}/error_tracking?environment=production&level=error&query=PayError`,
    );
    const both = await page.locator('thead th.num').first().innerText();
    expect(both.replace(/\s+/g, ' ')).toBe('Events (environment production)');
    const count = await page.locator('tbody tr td.num').first().innerText();
    expect(count.trim()).toBe('2');
    // Its sparkline charts the same environment's events.
    expect(
      await page.locator('svg.sparkline').first().getAttribute('aria-label'),
    ).toMatch(/^2 events in the last 24 hours/);
    await page.context().close();
  });

  it('fits the searched list and the tags panel into a 375 px wide phone screen', async () => {
    const page = await newPage(375, 812);
    await signIn(page, gw.url, 'root', await rootPassword(gw));
    for (const [name, path] of [
      [
        'phone-error-list-search',
        `/projects/${project.id}/error_tracking?query=${encodeURIComponent('browser.name:Firefox !environment:staging')}&release=shop%402.4.1`,
      ],
      [
        'phone-tag-distribution',
        `/projects/${project.id}/error_tracking/${sdkErrorId}`,
      ],
    ] as const) {
      expect((await page.goto(`${gw.url}${path}`))?.status()).toBe(200);
      expect(
        await page.evaluate<number>('document.documentElement.scrollWidth'),
      ).toBeLessThanOrEqual(375);
      await screenshot(page, name);
      expect(await seriousAxeViolations(page)).toEqual([]);
    }
    await page.context().close();
  });
});

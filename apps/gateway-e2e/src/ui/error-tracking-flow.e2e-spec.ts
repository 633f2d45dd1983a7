import type { Browser, BrowserContext, Page } from 'playwright-core';

import { startErrorTrackingGateway } from '../error-tracking/error-tracking-support';
import type { ErrorTrackingGateway } from '../error-tracking/error-tracking-support';
import { rootPassword } from '../error-tracking/web-support';
import {
  launchChromium,
  reportWithSentrySdk,
  screenshot,
  seriousAxeViolations,
  signIn,
} from './browser-support';

const HOUR_MS = 3_600_000;

/** `09:00–10:00 UTC: 3 events`, the title of one bar, computed independently. */
function barTitle(hourStartMs: number, count: number): string {
  const hh = (ms: number) => new Date(ms).toISOString().slice(11, 16);
  return `${hh(hourStartMs)}–${hh(hourStartMs + HOUR_MS)} UTC: ${count} event${count === 1 ? '' : 's'}`;
}

describe('error tracking in the browser: sign in to an issue (Chromium e2e)', () => {
  let gw: ErrorTrackingGateway;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const problems: string[] = [];
  let dsn = '';
  let errorPath = '';

  async function checkPage(name: string): Promise<void> {
    await screenshot(page, name);
    expect(await seriousAxeViolations(page)).toEqual([]);
  }

  beforeAll(async () => {
    gw = await startErrorTrackingGateway();
    browser = await launchChromium();
    context = await browser.newContext({
      viewport: { width: 1280, height: 900 },
    });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: gw.url,
    });
    page = await context.newPage();
    page.setDefaultTimeout(10_000);
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await gw?.close();
  });

  it('signs in as root with the first-boot password and lands where it was going', async () => {
    await page.goto(`${gw.url}/`);
    expect(new URL(page.url()).pathname).toBe('/users/sign_in');
    await checkPage('sign-in');
    await signIn(page, gw.url, 'root', await rootPassword(gw));
    expect(new URL(page.url()).pathname).toBe('/');
    await expect(
      page.getByRole('heading', { name: 'Projects', exact: true }).isVisible(),
    ).resolves.toBe(true);
  });

  it('creates a project and enables error tracking', async () => {
    await page.getByLabel('Project name').fill('Web Shop');
    await page.getByRole('button', { name: 'Create project' }).click();
    await page.waitForURL(/\/settings\/monitor/);
    await page.getByLabel('Active').check();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.waitForURL(/notice=settings-saved/);
    expect(
      await page.getByText('Error tracking settings saved.').isVisible(),
    ).toBe(true);
  });

  it('shows the DSN and copies it with the copy button', async () => {
    const field = page.getByRole('textbox', {
      name: 'Data Source Name (DSN)',
    });
    dsn = await field.inputValue();
    expect(dsn).toMatch(
      /^http:\/\/glet_[0-9a-f]{32}@127\.0\.0\.1:\d+\/api\/v4\/error_tracking\/collector\/\d+$/,
    );
    await page
      .getByRole('button', { name: 'Copy Data Source Name (DSN)' })
      .click();
    await page
      .locator('[data-copy-target="dsn"] .copy-label', { hasText: 'Copied' })
      .waitFor();
    expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe(
      dsn,
    );
    await checkPage('settings-monitor');
  });

  it('receives errors sent by @sentry/node to that DSN and lists them', async () => {
    await reportWithSentrySdk(dsn, 3);
    // Three more occurrences of the same error from earlier hours.
    const url = new URL(dsn);
    const projectId = url.pathname.split('/').pop();
    const now = Date.now();
    for (const [i, hoursAgo] of [3, 3, 5].entries()) {
      await gw.http
        .post(
          `/api/v4/error_tracking/collector/api/${projectId}/store?sentry_key=${url.username}`,
        )
        .set('Content-Type', 'application/json')
        .send({
          event_id: `${i + 1}`.padStart(32, 'e'),
          timestamp: (now - hoursAgo * HOUR_MS) / 1000,
          platform: 'node',
          release: 'shop@2.4.0',
          fingerprint: ['checkout-card-declined'],
          exception: {
            values: [
              { type: 'RangeError', value: 'Card declined for order 0' },
            ],
          },
        })
        .expect(200);
    }
    await page.goto(`${gw.url}/projects/${projectId}/error_tracking`);
    const row = page.getByRole('row', { name: /RangeError: Card declined/ });
    expect(await row.count()).toBe(1);
    const cells = await row.getByRole('cell').allInnerTexts();
    expect(cells[1]).toBe('6');
    expect(cells[2]).toBe('2');
    expect(await row.locator('svg.sparkline g.bar title').count()).toBe(24);
    await checkPage('error-list');
    errorPath = (await row.getByRole('link').getAttribute('href')) ?? '';
  });

  it("opens the error; the chart's hourly counts match the stored events", async () => {
    await page.getByRole('link', { name: /RangeError: Card declined/ }).click();
    await page.waitForURL((u) => u.pathname === errorPath);
    const errorId = errorPath.split('/').pop();
    const hours = await gw.query<{ hour: Date; n: number }>(
      `SELECT date_trunc('hour', timestamp) AS hour, count(*)::int AS n
         FROM error_tracking.events WHERE error_id = $1 GROUP BY 1`,
      [errorId],
    );
    const counts = new Map(hours.map((h) => [new Date(h.hour).getTime(), h.n]));
    expect([...counts.values()].reduce((a, b) => a + b, 0)).toBe(6);
    const titles = await page
      .locator('svg.bar-chart g.bar title')
      .allTextContents();
    expect(titles).toHaveLength(24);
    const current = Math.floor(Date.now() / HOUR_MS) * HOUR_MS;
    const expected = Array.from({ length: 24 }, (_, i) => {
      const hour = current - (23 - i) * HOUR_MS;
      return barTitle(hour, counts.get(hour) ?? 0);
    });
    expect(titles).toEqual(expected);
    const alternative = await page.locator('svg.bar-chart desc').textContent();
    expect(alternative).toMatch(/^6 events in the last 24 hours/);
    expect(
      await page
        .locator('.stat', { hasText: 'Events' })
        .locator('.stat-value')
        .innerText(),
    ).toBe('6');
    expect(
      await page.locator('.stat', { hasText: 'First seen' }).innerText(),
    ).toContain('shop@2.4.0');
    const lastSeenCard = page.locator('.stat', { hasText: 'Last seen' });
    expect(await lastSeenCard.innerText()).toContain('shop@2.4.1');
    const lastSeen = lastSeenCard.locator('time');
    expect(await lastSeen.getAttribute('title')).toMatch(
      /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC$/,
    );
  });

  it('shows the stack trace crash frame first, with numbered context lines', async () => {
    const frames = page.locator('.stack details.frame');
    const crash = frames.first();
    expect(await crash.getAttribute('open')).not.toBeNull();
    expect(await crash.getAttribute('class')).toContain('in-app');
    const crashSummary = await crash.locator('summary').innerText();
    expect(crashSummary).toMatch(/ui-sdk-client\.js:\d+/);
    expect(crashSummary).toContain('chargeCard');
    expect(await frames.nth(1).locator('summary').innerText()).toContain(
      'checkout',
    );
    const current = crash.locator('li.current');
    expect(await current.locator('.code').innerText()).toContain(
      'throw new RangeError',
    );
    const line = Number(/ui-sdk-client\.js:(\d+)/.exec(crashSummary)?.[1]);
    expect(Number(await current.locator('.ln').innerText())).toBe(line);
    // Other frames open on demand.
    await frames.nth(1).locator('summary').click();
    expect(await frames.nth(1).locator('li.current').isVisible()).toBe(true);
    await checkPage('error-detail');
  });

  it('creates an issue from the error and finds the stack trace in it', async () => {
    await page.getByRole('button', { name: 'Create issue' }).click();
    await page.waitForURL(/\/issues\/1\?notice=issue-created/);
    expect(
      await page.getByRole('heading', { name: 'Stack trace' }).isVisible(),
    ).toBe(true);
    const description = await page.locator('.description').innerText();
    expect(description).toMatch(/chargeCard \(.*ui-sdk-client\.js:\d+\)/);
    expect(description.indexOf('chargeCard')).toBeLessThan(
      description.indexOf('checkout ('),
    );
    await checkPage('issue');
    await page.goto(`${gw.url}${errorPath}`);
    expect(
      await page.getByRole('link', { name: 'View issue #1' }).isVisible(),
    ).toBe(true);
  });

  it('resolves the error (closing its issue); a new event reopens both', async () => {
    await page.getByRole('button', { name: 'Resolve' }).click();
    await page.waitForURL(/notice=resolved/);
    expect(await page.locator('.page-header .badge').innerText()).toBe(
      'Resolved',
    );
    await page.goto(
      `${gw.url}${errorPath.replace(/error_tracking\/\d+$/, 'issues')}?state=all`,
    );
    expect(
      await page
        .getByRole('row', { name: /Card declined/ })
        .getByText('Closed')
        .isVisible(),
    ).toBe(true);

    await reportWithSentrySdk(dsn, 1);
    await page.goto(`${gw.url}${errorPath}`);
    expect(await page.locator('.page-header .badge').innerText()).toBe(
      'Unresolved',
    );
    expect(
      await page
        .locator('.stat', { hasText: 'Events' })
        .locator('.stat-value')
        .innerText(),
    ).toBe('7');
    await page.getByRole('link', { name: 'View issue #1' }).click();
    expect(await page.locator('.page-header .issue-state').innerText()).toBe(
      'Open',
    );
    await page
      .getByRole('link', { name: 'Issues', exact: true })
      .first()
      .click();
    await checkPage('issues');
    await page.goto(`${gw.url}/`);
    await checkPage('projects');
  }, 60_000);

  it('saw no script error or CSP violation on any page', () => {
    expect(problems).toEqual([]);
  });
});

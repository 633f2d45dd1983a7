import type { Browser, Page } from 'playwright-core';

import {
  createTrackedProject,
  startErrorTrackingGateway,
  storeEvent,
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

const MINUTE_MS = 60_000;
const SECRET = 'Bearer s3cr3t-never-shown';

function eventId(n: number): string {
  return `${n}`.padStart(32, 'a');
}

/** The n-th of three occurrences of one error, n minutes after the first. */
function occurrence(n: number, first: number): Record<string, unknown> {
  const time = first + n * MINUTE_MS;
  return {
    event_id: eventId(n),
    timestamp: time / 1000,
    platform: 'node',
    release: `shop@1.0.${n}`,
    environment: 'production',
    server_name: `web-${n}`,
    transaction: 'POST /checkout',
    fingerprint: ['event-page-e2e'],
    tags: { region: `eu-${n}`, feature: 'checkout' },
    user: { id: `u-${n}`, email: `buyer${n}@example.com`, plan: 'gold' },
    contexts: {
      os: { type: 'os', name: 'Linux', version: '6.1' },
      runtime: { type: 'runtime', name: 'node', version: 'v20.11.0' },
      cart: { items: 3, total: 120 },
    },
    request: {
      method: 'POST',
      url: 'https://shop.example.com/checkout',
      query_string: 'step=pay',
      headers: {
        Authorization: SECRET,
        Cookie: 'session=s3cr3t-never-shown',
        'User-Agent': 'e2e',
      },
      data: { card: 'visa', password: 's3cr3t-never-shown' },
    },
    // Long enough to scroll in its box (which keyboard users must reach).
    extra: {
      attempt: n,
      basket: Array.from({ length: 60 }, (_, i) => ({ sku: `sku-${i}` })),
    },
    sdk: {
      name: 'sentry.javascript.node',
      version: '8.0.0',
      integrations: ['Http', 'Express'],
      packages: [{ name: 'npm:@sentry/node', version: '8.0.0' }],
    },
    breadcrumbs: {
      values: [
        {
          timestamp: (time - 2_000) / 1000,
          category: 'http',
          level: 'info',
          message: `GET /cart/${n}`,
          data: { status_code: 200 },
        },
        {
          timestamp: (time - 500) / 1000,
          category: 'ui.click',
          level: 'warning',
          message: 'button#pay',
        },
      ],
    },
    exception: {
      values: [
        {
          type: 'TypeError',
          value: `card is undefined (${n})`,
          mechanism: { type: 'generic', handled: true },
        },
        {
          type: 'PaymentError',
          value: `payment ${n} failed`,
          mechanism: { type: 'onunhandledrejection', handled: false },
          stacktrace: {
            frames: [
              {
                filename: 'node:internal/process/task_queues',
                function: 'processTicksAndRejections',
                lineno: 95,
                in_app: false,
              },
              {
                filename: 'app/checkout.js',
                function: 'pay',
                lineno: 42,
                pre_context: ['async function pay(order) {'],
                context_line: '  throw new PaymentError(order.id);',
                post_context: ['}'],
                vars: { order: { id: n } },
                in_app: true,
              },
            ],
          },
        },
      ],
    },
  };
}

describe("an error's events in the browser: navigation, breadcrumbs, tags (Chromium e2e)", () => {
  let gw: ErrorTrackingGateway;
  let browser: Browser;
  let page: Page;
  let errorPath = '';

  async function checkPage(name: string): Promise<void> {
    await screenshot(page, name);
    expect(await seriousAxeViolations(page)).toEqual([]);
  }

  /** The event id the page shows. */
  function shownEvent(): Promise<string> {
    return page.locator('.page-header code.event-id').innerText();
  }

  async function step(label: string, expected: number): Promise<void> {
    await page
      .getByRole('navigation', { name: 'Events of this error' })
      .getByRole('link', { name: label, exact: true })
      .click();
    await page.waitForURL((url) => url.pathname.endsWith(eventId(expected)));
    expect(await shownEvent()).toBe(eventId(expected));
  }

  function disabledSteps(): Promise<string[]> {
    return page
      .getByRole('navigation', { name: 'Events of this error' })
      .locator('[aria-disabled="true"]')
      .allInnerTexts();
  }

  beforeAll(async () => {
    gw = await startErrorTrackingGateway();
    const project = await createTrackedProject(gw);
    const first = Date.now() - 10 * MINUTE_MS;
    for (const n of [2, 1, 3]) {
      const res = await storeEvent(
        gw,
        project.id,
        project.publicKey,
        occurrence(n, first),
      );
      expect(res.status).toBe(200);
    }
    const [row] = await gw.query<{ id: string }>(
      'SELECT id::text AS id FROM error_tracking.errors WHERE project_id = $1',
      [project.id],
    );
    errorPath = `/projects/${project.id}/error_tracking/${row?.id}`;
    browser = await launchChromium();
    const context = await browser.newContext({
      viewport: { width: 1280, height: 900 },
    });
    page = await context.newPage();
    page.setDefaultTimeout(10_000);
    await signIn(page, gw.url, 'root', await rootPassword(gw));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await gw?.close();
  });

  it('shows the latest event on the error page, with the way to the older ones', async () => {
    await page.goto(`${gw.url}${errorPath}`);
    const latest = page.locator('section.latest-event');
    expect(
      await latest.locator('.section-header code.event-id').innerText(),
    ).toBe(eventId(3));
    expect(await disabledSteps()).toEqual(['Newer', 'Latest']);
    expect(await latest.locator('.exception-value').first().innerText()).toBe(
      'payment 3 failed',
    );
    await checkPage('error-detail-latest-event');
  });

  it('steps across the three events: older, older, latest, oldest, newer', async () => {
    await page
      .getByRole('navigation', { name: 'Events of this error' })
      .getByRole('link', { name: 'Older', exact: true })
      .click();
    await page.waitForURL((url) => url.pathname.endsWith(eventId(2)));
    expect(await shownEvent()).toBe(eventId(2));
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe(
      'PaymentError: payment 2 failed',
    );
    expect(await disabledSteps()).toEqual([]);
    await step('Older', 1);
    expect(await disabledSteps()).toEqual(['Oldest', 'Older']);
    await step('Latest', 3);
    await step('Oldest', 1);
    await step('Newer', 2);
    await checkPage('event');
  });

  it("shows the event's breadcrumbs as a timeline relative to the event", async () => {
    const crumbs = page.locator('.crumb-timeline > li');
    expect(await crumbs.count()).toBe(2);
    const first = await crumbs.nth(0).innerText();
    expect(first).toContain('-2.00 s');
    expect(first).toContain('http');
    expect(first).toContain('GET /cart/2');
    expect(first).toContain('status_code');
    const second = await crumbs.nth(1).innerText();
    expect(second).toContain('-0.50 s');
    expect(second).toContain('ui.click');
    expect(second).toContain('warning');
  });

  it("shows the event's own tags, SDK tags and those of its fields", async () => {
    const tags = await page
      .getByRole('list', { name: 'Event tags' })
      .locator('li')
      .allInnerTexts();
    expect(tags.map((t) => t.replace(/\s+/g, ' ').trim())).toEqual([
      'environment production',
      'feature checkout',
      'level error',
      'region eu-2',
      'release shop@1.0.2',
    ]);
  });

  it('shows the exception chain, thrown first, in-app frames before the folded rest', async () => {
    const chain = page.locator('.exception-chain > li');
    expect(await chain.count()).toBe(2);
    expect(await chain.nth(0).locator('h3').innerText()).toBe('PaymentError');
    const badges = (n: number) =>
      chain.nth(n).locator('.mechanism .badge').allInnerTexts();
    expect(await badges(0)).toEqual([
      'mechanism: onunhandledrejection',
      'unhandled',
    ]);
    expect(await chain.nth(1).locator('h3').innerText()).toBe('TypeError');
    expect(await badges(1)).toEqual(['mechanism: generic', 'handled']);
    expect(await chain.nth(1).innerText()).toContain(
      'No stack trace was sent.',
    );
    const thrown = chain.nth(0);
    const shown = thrown.locator(':scope > .stack > details.frame');
    expect(await shown.count()).toBe(1);
    expect(await shown.locator('summary').innerText()).toContain(
      'crashed here',
    );
    expect(await shown.locator('li.current .code').innerText()).toBe(
      '  throw new PaymentError(order.id);',
    );
    expect(await shown.locator('.frame-vars').innerText()).toContain('order');
    const all = thrown.locator('details.all-frames');
    expect(await all.locator('details.frame').first().isVisible()).toBe(false);
    await all.locator('summary').first().click();
    expect(await all.locator('details.frame').count()).toBe(2);
    expect(await all.locator('details.frame').nth(1).innerText()).toContain(
      'processTicksAndRejections',
    );
  });

  it('masks credentials of the request and shows the rest of the event', async () => {
    const body = await page.locator('main').innerText();
    expect(body).not.toContain('s3cr3t');
    const request = page.locator('section', {
      has: page.getByRole('heading', { name: 'Request' }),
    });
    const headers = await request.getByRole('definition').allInnerTexts();
    expect(headers).toEqual(
      expect.arrayContaining([
        'POST',
        'https://shop.example.com/checkout',
        'step=pay',
        'e2e',
      ]),
    );
    expect(body).toContain('[Filtered]');
    for (const text of [
      'Operating system',
      'Linux',
      'v20.11.0',
      'cart',
      'buyer2@example.com',
      'gold',
      'sentry.javascript.node',
      'Http, Express',
      'npm:@sentry/node 8.0.0',
      'web-2',
      'POST /checkout',
    ])
      expect(body).toContain(text);
  });

  it('lists the events newest first and finds them by search', async () => {
    await page.getByRole('link', { name: 'All events', exact: true }).click();
    await page.waitForURL((url) => url.pathname.endsWith('/events'));
    const links = page.locator('main table tbody a');
    expect(
      await links.evaluateAll((as) => as.map((a) => a.getAttribute('href'))),
    ).toEqual([3, 2, 1].map((n) => `${errorPath}/events/${eventId(n)}`));
    await page.getByLabel('Search').fill('payment 2');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/query=payment/);
    expect(await links.count()).toBe(1);
    // A query of an error's own keys is told beside the box, nothing listed.
    await page.getByLabel('Search').fill('is:resolved');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/query=is%3Aresolved/);
    await expect(
      page.getByRole('alert').filter({ hasText: 'not its events' }).count(),
    ).resolves.toBe(1);
    expect(await links.count()).toBe(0);
    await checkPage('events-list');
  });

  it('fits the event page and the events list into a 375 px wide phone screen', async () => {
    const phone = await browser.newContext({
      viewport: { width: 375, height: 812 },
    });
    const small = await phone.newPage();
    small.setDefaultTimeout(10_000);
    await signIn(small, gw.url, 'root', await rootPassword(gw));
    for (const [name, path] of [
      ['phone-event', `${errorPath}/events/${eventId(2)}`],
      ['phone-events-list', `${errorPath}/events`],
      ['phone-error-latest-event', errorPath],
    ]) {
      const response = await small.goto(`${gw.url}${path}`);
      expect(response?.status()).toBe(200);
      await expectNoSidewaysScroll(small, name, 375);
      await screenshot(small, name);
      expect(await seriousAxeViolations(small)).toEqual([]);
    }
    await phone.close();
  });

  it('answers 404 for an unknown event of the error, 400 for a forged cursor', async () => {
    const unknown = await page.goto(
      `${gw.url}${errorPath}/events/${'f'.repeat(32)}`,
    );
    expect(unknown?.status()).toBe(404);
    const forged = await page.goto(`${gw.url}${errorPath}/events?cursor=nope`);
    expect(forged?.status()).toBe(400);
    expect(await page.getByText('cursor is invalid').isVisible()).toBe(true);
  });
});

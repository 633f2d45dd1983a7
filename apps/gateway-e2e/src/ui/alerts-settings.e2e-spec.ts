import { WebhookReceiver, defined } from '@quitanda/testing';
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
  reportWithSentrySdk,
  screenshot,
  seriousAxeViolations,
  signIn,
} from './browser-support';

describe('alerts on the Monitor settings page (Chromium e2e)', () => {
  let gw: ErrorTrackingGateway;
  let browser: Browser;
  let receiver: WebhookReceiver;
  let project: { id: number; dsn: string };
  const problems: string[] = [];

  async function newPage(): Promise<Page> {
    const context = await browser.newContext({
      viewport: { width: 1280, height: 900 },
    });
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    page.on('pageerror', (error) => problems.push(error.message));
    return page;
  }

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    gw = await startErrorTrackingGateway({
      ALERTS_ALLOW_LOCAL_TARGETS: 'true',
      ALERTS_ENCRYPTION_KEY: 'ui-alerts-encryption-key-0123456789ab',
      ALERTS_POLL_SECONDS: '1',
    });
    browser = await launchChromium();
    project = await createTrackedProject(gw);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await gw?.close();
    await receiver?.close();
  });

  it('adds a webhook that receives a test and then the alert of a new error, with its deliveries listed', async () => {
    const page = await newPage();
    await signIn(page, gw.url, 'root', await rootPassword(gw));
    const settings = `${gw.url}/projects/${project.id}/settings/monitor`;
    await page.goto(settings);
    expect(
      await page
        .getByText('This instance has no SMTP server configured')
        .isVisible(),
    ).toBe(true);

    await page.getByLabel('URL', { exact: true }).fill(receiver.url);
    await page.getByLabel('Secret token').fill('ui-secret');
    await page.getByRole('button', { name: 'Add webhook' }).click();
    await page.waitForURL(/notice=hook-created/);
    const hook = page.getByRole('article', { name: `Webhook ${receiver.url}` });
    expect(await hook.getByText('No deliveries yet.').isVisible()).toBe(true);
    expect(await page.content()).not.toContain('ui-secret');

    await hook
      .getByRole('button', { name: `Send test to ${receiver.url}` })
      .click();
    await page.waitForURL(/notice=hook-test-delivered/);
    const [test] = await receiver.waitFor(1);
    expect(defined(test).headers['x-gitlab-token']).toBe('ui-secret');
    const deliveries = page.getByRole('table', {
      name: `Recent deliveries to ${receiver.url}`,
    });
    expect(await deliveries.locator('tbody tr').count()).toBe(1);
    expect(await deliveries.locator('tbody tr').first().innerText()).toMatch(
      /test\s+200\s+1/,
    );

    await reportWithSentrySdk(project.dsn, 3);
    const [, alert] = await receiver.waitFor(2);
    const body = JSON.parse(defined(alert).body);
    expect(body).toMatchObject({ action: 'new', project: { id: project.id } });
    expect(body.error.title).toMatch(
      /^RangeError: Card declined for order \d$/,
    );
    // The SDK's three events (all committed before it flushed) made one
    // error: exactly one alert was recorded, and it was sent once.
    const [outbox] = await gw.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM error_tracking.alerts WHERE project_id = $1',
      [project.id],
    );
    expect(defined(outbox).n).toBe(1);
    expect(receiver.requests).toHaveLength(2);

    await page.reload();
    const rows = page
      .getByRole('table', { name: `Recent deliveries to ${receiver.url}` })
      .locator('tbody tr');
    expect(await rows.first().innerText()).toMatch(/new\s+200\s+1/);
    await screenshot(page, 'settings-monitor-alerts');
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('saves the frequent rule and the e-mail opt-out; a developer sees only the opt-out', async () => {
    const page = await newPage();
    await signIn(page, gw.url, 'root', await rootPassword(gw));
    const settings = `${gw.url}/projects/${project.id}/settings/monitor`;
    await page.goto(settings);
    await page.getByLabel('Frequent: events').fill('25');
    await page.getByLabel('Within minutes').fill('15');
    await page.getByRole('button', { name: 'Save alert rules' }).click();
    await page.waitForURL(/notice=alert-rules-saved/);
    expect(await page.getByLabel('Frequent: events').inputValue()).toBe('25');
    const rules = await gw.http
      .get(`/api/v4/projects/${project.id}/error_tracking/alerts`)
      .set('PRIVATE-TOKEN', ROOT_TOKEN)
      .expect(200);
    expect(rules.body).toEqual({
      frequent_threshold: 25,
      frequent_window_minutes: 15,
    });
    await page.context().close();

    const developer = await createMember(gw, project.id, 30);
    const devPage = await newPage();
    await signIn(devPage, gw.url, developer.username, 'correct horse battery');
    await devPage.goto(`${gw.url}/projects/${project.id}/error_tracking`);
    await devPage
      .getByRole('navigation', { name: 'Project' })
      .getByRole('link', { name: 'Monitor' })
      .click();
    await devPage.waitForURL(/\/settings\/monitor/);
    expect(
      await devPage.getByRole('heading', { name: 'Webhooks' }).count(),
    ).toBe(0);
    expect(
      await devPage.getByRole('heading', { name: 'Client keys' }).count(),
    ).toBe(0);
    const optIn = devPage.getByLabel("E-mail me this project's alerts");
    expect(await optIn.isChecked()).toBe(true);
    await optIn.uncheck();
    await devPage
      .getByRole('button', { name: 'Save e-mail preference' })
      .click();
    await devPage.waitForURL(/notice=alert-email-saved/);
    expect(
      await devPage.getByLabel("E-mail me this project's alerts").isChecked(),
    ).toBe(false);
    const [row] = await gw.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM error_tracking.alert_email_opt_outs
        WHERE project_id = $1 AND user_id = $2`,
      [project.id, developer.id],
    );
    expect(defined(row).n).toBe(1);
    await screenshot(devPage, 'settings-monitor-developer');
    expect(await seriousAxeViolations(devPage)).toEqual([]);
    // Maintainers' forms stay closed to a developer (with a valid CSRF token).
    const csrf = await devPage
      .locator('input[name="_csrf"]')
      .first()
      .inputValue();
    const response = await devPage.request.post(
      `${gw.url}/projects/${project.id}/settings/monitor/alerts`,
      { form: { _csrf: csrf, frequent_threshold: '1' } },
    );
    expect(await response.text()).toContain('permission');
    expect(response.status()).toBe(403);
    await devPage.context().close();
  });
});

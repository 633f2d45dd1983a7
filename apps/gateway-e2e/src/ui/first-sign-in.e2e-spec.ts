import type { Browser } from 'playwright-core';

import { startErrorTrackingGateway } from '../error-tracking/error-tracking-support';
import type { ErrorTrackingGateway } from '../error-tracking/error-tracking-support';
import { initialRootPassword } from '../error-tracking/web-support';
import {
  launchChromium,
  screenshot,
  seriousAxeViolations,
  signIn,
} from './browser-support';

describe('root’s first sign-in in the browser: a new password first (Chromium e2e)', () => {
  let gw: ErrorTrackingGateway;
  let browser: Browser;

  beforeAll(async () => {
    gw = await startErrorTrackingGateway();
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await gw?.close();
  });

  it('leads from the generated password to “Set up new password”, then signs in with the new one', async () => {
    const page = await (await browser.newContext()).newPage();
    page.setDefaultTimeout(10_000);
    const generated = await initialRootPassword(gw);
    await signIn(page, gw.url, 'root', generated);
    expect(new URL(page.url()).pathname).toBe('/-/profile/password/new');
    await page.getByRole('heading', { name: 'Set up new password' }).waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);

    // Another page is not reachable yet.
    await page.goto(`${gw.url}/projects`);
    expect(new URL(page.url()).pathname).toBe('/-/profile/password/new');

    await page.getByLabel('Current password').fill(generated);
    await page.getByLabel('New password').fill('short');
    await page.getByLabel('Password confirmation').fill('short');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.getByText('is too short').waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);

    await page.getByLabel('Current password').fill(generated);
    await page.getByLabel('New password').fill('my own root password');
    await page.getByLabel('Password confirmation').fill('my own root password');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.waitForURL((url) => url.pathname === '/users/sign_in');
    await page.getByText('Password successfully changed').waitFor();
    await screenshot(page, 'password-changed');

    await signIn(page, gw.url, 'root', 'my own root password');
    expect(new URL(page.url()).pathname).toBe('/');
    await page.getByText('@root').waitFor();
  });
});

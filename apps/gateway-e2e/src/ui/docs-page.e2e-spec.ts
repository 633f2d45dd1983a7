import type { Browser } from 'playwright-core';
import request from 'supertest';

import { startTestGateway } from '../support/test-gateway';
import type { TestGateway } from '../support/test-gateway';
import { launchChromium } from './browser-support';

describe('the OpenAPI UI at /docs in the browser (Chromium e2e)', () => {
  let gw: TestGateway;
  let browser: Browser;

  beforeAll(async () => {
    gw = await startTestGateway({ CONTEXTS: 'events' });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await gw?.close();
  });

  it('sends a Content-Security-Policy that forbids framing, on the page and its assets', async () => {
    for (const path of ['/docs', '/docs/', '/docs/swagger-ui-init.js']) {
      const res = await request(gw.url).get(path);
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(res.headers['x-frame-options']).toBe('DENY');
    }
  });

  it('still renders every operation under that policy, with no violation reported', async () => {
    const page = await (await browser.newContext()).newPage();
    page.setDefaultTimeout(10_000);
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    await page.goto(`${gw.url}/docs`);
    await page.locator('.opblock').first().waitFor();
    expect(await page.locator('.opblock').count()).toBeGreaterThan(3);
    await page.locator('.opblock-summary').first().click();
    await page.locator('.opblock-body').first().waitFor();
    expect(problems).toEqual([]);
  });

  it('is not shown inside another page’s frame', async () => {
    const page = await (await browser.newContext()).newPage();
    page.setDefaultTimeout(10_000);
    const framed = page.waitForEvent(
      'framenavigated',
      (frame) => frame !== page.mainFrame(),
    );
    await page.setContent(`<iframe src="${gw.url}/docs/"></iframe>`);
    const frame = await framed;
    await frame.waitForLoadState();
    expect(await frame.locator('#swagger-ui').count()).toBe(0);
  });
});

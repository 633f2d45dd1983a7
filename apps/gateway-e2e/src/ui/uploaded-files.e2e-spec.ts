import type { Browser, BrowserContext } from 'playwright-core';

import {
  startMarketplace,
  uploadFile,
} from '../marketplace/marketplace-support';
import type { MarketplaceTest } from '../marketplace/marketplace-support';
import { launchChromium } from './browser-support';

/** A 1x1 transparent PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);
/** What an attacker uploads with the app secret, shipped in every app. */
const STEAL = "<script>localStorage.setItem('pwned', document.domain)</script>";
const HOSTILE: Readonly<Record<string, string>> = {
  'text/html': `<!doctype html><title>x</title>${STEAL}`,
  'image/svg+xml': `<svg xmlns="http://www.w3.org/2000/svg">${STEAL}</svg>`,
  'application/xhtml+xml': `<html xmlns="http://www.w3.org/1999/xhtml"><body>${STEAL}</body></html>`,
};

describe('uploaded files in the browser (Chromium e2e)', () => {
  let t: MarketplaceTest;
  let browser: Browser;
  let context: BrowserContext;

  beforeAll(async () => {
    t = await startMarketplace();
    browser = await launchChromium();
  }, 60_000);

  beforeEach(async () => {
    context = await browser.newContext();
  });

  afterEach(() => context?.close());

  afterAll(async () => {
    await browser?.close();
    await t?.gw.close();
  });

  async function upload(
    filename: string,
    mimeType: string,
    bytes: Buffer,
  ): Promise<string> {
    return (await uploadFile(t, { _filename: filename, mimeType }, bytes))
      .downloadURL;
  }

  it.each([
    ['page.html', 'text/html'],
    ['image.svg', 'image/svg+xml'],
    ['page.xhtml', 'application/xhtml+xml'],
  ])(
    "opening an uploaded %s (%s) runs no script on the gateway's origin",
    async (filename, mimeType) => {
      const download = await upload(
        filename,
        mimeType,
        Buffer.from(HOSTILE[mimeType] ?? ''),
      );
      const page = await context.newPage();
      page.setDefaultTimeout(10_000);
      // An attachment is downloaded, not shown: the navigation is aborted.
      await page.goto(download).catch(() => undefined);
      await page.goto(`${t.gw.url}/health/live`);
      expect(await page.evaluate("localStorage.getItem('pwned')")).toBeNull();
    },
  );

  it('still shows an uploaded image in the tab', async () => {
    const download = await upload('dot.png', 'image/png', PNG);
    const page = await context.newPage();
    await page.goto(download);
    expect(await page.evaluate('document.images[0].naturalWidth')).toBe(1);
  });

  it('lets the browser load an uploaded video in its own player', async () => {
    const download = await upload('clip.mp4', 'video/mp4', Buffer.alloc(64));
    const page = await context.newPage();
    const refused: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy|CORS/.test(message.text()))
        refused.push(message.text());
    });
    await page.goto(download);
    await page.locator('video').waitFor({ state: 'attached' });
    await page.waitForFunction(
      "document.querySelector('video').networkState !== 2",
    );
    expect(refused).toEqual([]);
  });
});

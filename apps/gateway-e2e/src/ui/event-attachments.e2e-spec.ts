import { readFile } from 'node:fs/promises';

import { defined } from '@quitanda/testing';
import type { Browser, BrowserContext, Page } from 'playwright-core';

import {
  HTML_ATTACHMENT,
  attachmentBytes,
  reportWithAttachments,
} from '../error-tracking/attachment-sdk';
import {
  createMember,
  createTrackedProject,
  startErrorTrackingGateway,
} from '../error-tracking/error-tracking-support';
import type { ErrorTrackingGateway } from '../error-tracking/error-tracking-support';
import {
  launchChromium,
  seriousAxeViolations,
  signIn,
} from './browser-support';

const SIZE = 300 * 1024;
const SEED = 7;

describe('event attachments in the browser (Chromium e2e)', () => {
  let gw: ErrorTrackingGateway;
  let browser: Browser;
  let context: BrowserContext;
  let errorPath: string;
  let member: { username: string };

  beforeAll(async () => {
    gw = await startErrorTrackingGateway();
    browser = await launchChromium();
    const project = await createTrackedProject(gw);
    const eventId = await reportWithAttachments(project.dsn, SIZE, SEED);
    const [row] = await gw.query<{ error_id: string }>(
      `SELECT error_id::text FROM error_tracking.events
        WHERE project_id = $1 AND event_id = $2`,
      [project.id, eventId],
    );
    errorPath = `/projects/${project.id}/error_tracking/${defined(row).error_id}`;
    member = await createMember(gw, project.id, 20);
  }, 90_000);

  beforeEach(async () => {
    context = await browser.newContext({ acceptDownloads: true });
  });

  afterEach(() => context?.close());

  afterAll(async () => {
    await browser?.close();
    await gw?.close();
  });

  async function errorPage(): Promise<Page> {
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    await signIn(page, gw.url, member.username, 'correct horse battery');
    await page.goto(`${gw.url}${errorPath}`);
    return page;
  }

  it("a member downloads the latest event's attachment from the error page, its bytes as sent", async () => {
    const page = await errorPage();
    const card = page.getByRole('region', { name: 'Attachments' });
    await expect(card.getByRole('link').allTextContents()).resolves.toEqual([
      'heap dump.bin',
      'report.html',
    ]);
    expect(await seriousAxeViolations(page)).toEqual([]);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      card.getByRole('link', { name: 'heap dump.bin' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('heap dump.bin');
    const saved = await readFile(defined(await download.path()));
    expect(Buffer.compare(saved, attachmentBytes(SIZE, SEED))).toBe(0);
  });

  it('an HTML attachment is saved, never shown: the page stays and no script runs', async () => {
    const page = await errorPage();
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      dialog.dismiss().catch(() => undefined);
    });
    const card = page.getByRole('region', { name: 'Attachments' });
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      card.getByRole('link', { name: 'report.html' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('report.html');
    const saved = await readFile(defined(await download.path()));
    expect(saved.toString()).toBe(HTML_ATTACHMENT);
    // Opened directly, as a pasted link would be: still a download.
    const href = defined(
      await card
        .getByRole('link', { name: 'report.html' })
        .getAttribute('href'),
    );
    const direct = await context.newPage();
    const [again] = await Promise.all([
      direct.waitForEvent('download'),
      direct.goto(`${gw.url}${href}`).catch(() => undefined),
    ]);
    expect(again.suggestedFilename()).toBe('report.html');
    expect(new URL(page.url()).pathname).toBe(errorPath);
    expect(dialogs).toEqual([]);
  });
});

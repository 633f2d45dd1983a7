import { execFile } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

import axe from 'axe-core';
import { chromium } from 'playwright-core';
import type { Browser, Page } from 'playwright-core';

const run = promisify(execFile);

/** Chromium from the OS packages (CI installs Debian's); override with CHROMIUM_PATH. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-quic',
      '--no-first-run',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** Where page screenshots go (gitignored): UI_ARTIFACTS_DIR or dist/test-artifacts/ui. */
export const ARTIFACTS_DIR = resolve(
  process.env['UI_ARTIFACTS_DIR'] ??
    join(__dirname, '../../../../dist/test-artifacts/ui'),
);

/** Saves a full-page screenshot as `<name>.png` in the artefact folder. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir(ARTIFACTS_DIR, { recursive: true });
  await page.screenshot({
    path: join(ARTIFACTS_DIR, `${name}.png`),
    fullPage: true,
  });
}

export interface AxeViolation {
  readonly id: string;
  readonly impact: string | null;
  readonly help: string;
  readonly targets: string[];
}

interface RawViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: unknown[] }>;
}

/**
 * axe-core run inside the page (injected through the DevTools protocol, so
 * the page's CSP stays as it is); returns serious and critical violations.
 */
export async function seriousAxeViolations(
  page: Page,
): Promise<AxeViolation[]> {
  await page.evaluate(axe.source);
  // A string: this project compiles without the DOM's types.
  const violations = await page.evaluate<RawViolation[]>(
    "axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations)",
  );
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.map((n) => n.target.join(' ')),
    }));
}

/** Runs ui-sdk-client.js (@sentry/node) against `dsn`; resolves once flushed. */
export async function reportWithSentrySdk(
  dsn: string,
  reports: number,
): Promise<void> {
  const { stdout } = await run(
    process.execPath,
    [join(__dirname, 'ui-sdk-client.js')],
    {
      env: {
        ...process.env,
        SENTRY_DSN: dsn,
        REPORTS: String(reports),
        NODE_OPTIONS: '',
      },
      timeout: 60_000,
    },
  );
  if (JSON.parse(stdout).flushed !== true)
    throw new Error(`SDK did not flush: ${stdout}`);
}

/** Signs in through the form; lands on `expectedPath`. */
export async function signIn(
  page: Page,
  baseUrl: string,
  username: string,
  password: string,
): Promise<void> {
  await page.goto(`${baseUrl}/users/sign_in`);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => url.pathname !== '/users/sign_in');
}

/**
 * Fails, naming the widest elements, when the page scrolls sideways at
 * `width` px (the phone-width check of every page).
 */
export async function expectNoSidewaysScroll(
  page: Page,
  name: string,
  width: number,
): Promise<void> {
  const scrollWidth = await page.evaluate<number>(
    'document.documentElement.scrollWidth',
  );
  if (scrollWidth <= width) return;
  const wide = await page.evaluate<string[]>(
    `[...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > ${width + 1}).slice(0, 8).map((e) => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right))`,
  );
  throw new Error(
    `${name} is ${scrollWidth} px wide at ${width} px: ${wide.join(', ')}`,
  );
}

import { join } from 'node:path';

import type { GatewayConfig } from '../config/gateway-config';
import {
  INITIAL_CREDENTIALS_FILE,
  readInitialCredentials,
} from './initial-credentials';

/** One log line: its fields and its message. */
export interface SummaryLine {
  readonly fields: Record<string, unknown>;
  readonly msg: string;
}

/** The sign-in line, and its parts for the first screen. */
export interface SignInLine extends SummaryLine {
  /** Where the credentials are. */
  readonly where: string;
  /** How to sign in to each part. */
  readonly steps: readonly string[];
}

/** Where a person finds the API, its documentation and the web UI. */
export function listeningLine(
  config: GatewayConfig,
  url: string,
  database: string,
): SummaryLine {
  const base = config.publicBaseUrl ?? url;
  return {
    fields: {
      url,
      docs: `${base}/docs`,
      ...(config.contexts.has('error-tracking') ? { ui: `${base}/` } : {}),
      contexts: [...config.contexts],
      database,
      // Mailed links are built only on a configured base, never on a Host.
      ...(config.contexts.has('marketplace') && !config.publicBaseUrl
        ? { mail: 'account mail off until PUBLIC_BASE_URL is set' }
        : {}),
    },
    msg: 'Quitanda is listening',
  };
}

/**
 * How to sign in, naming where each secret is (the credentials file's keys
 * or the variables that fixed them) and never a secret itself: only the
 * root username and the marketplace app key, which are not secrets.
 */
export async function signInLine(
  config: GatewayConfig,
  url: string,
): Promise<SignInLine | undefined> {
  const file = join(config.dataDir, INITIAL_CREDENTIALS_FILE);
  const recorded = await readInitialCredentials(file);
  const base = config.publicBaseUrl ?? url;
  const parts: string[] = [];
  const fields: Record<string, unknown> = {};
  const root = recorded?.['error-tracking'];
  if (config.contexts.has('error-tracking')) {
    if (root?.['root_password']) {
      fields['ui_username'] = root['root_username'] ?? 'root';
      parts.push(
        `web UI ${base}/: sign in as ${String(fields['ui_username'])} with "root_password", then choose a new password`,
      );
    }
    if (config.initialRootToken)
      parts.push('GitLab API: PRIVATE-TOKEN is INITIAL_ROOT_TOKEN');
    else if (root?.['root_token'])
      parts.push('GitLab API: header PRIVATE-TOKEN with "root_token"');
  }
  if (config.contexts.has('marketplace')) {
    const appKey =
      config.marketplaceApp?.appKey ?? recorded?.['marketplace']?.['app_key'];
    if (appKey) {
      fields['app_key'] = appKey;
      parts.push(
        config.marketplaceApp
          ? `marketplace app ${appKey}: secrets are MARKETPLACE_APP_SECRET and MARKETPLACE_MASTER_SECRET`
          : `marketplace app ${appKey}: Basic ${appKey}:"app_secret" (or "master_secret")`,
      );
    }
  }
  if (parts.length === 0) return undefined;
  if (recorded) fields['credentials'] = file;
  const where = recorded
    ? `Credentials are in ${file} (owner-only, never logged)`
    : 'Credentials come from the environment';
  return { fields, msg: `${where}. ${parts.join('; ')}`, where, steps: parts };
}

/**
 * What a person at a terminal reads first (LOG_FORMAT pretty): the same
 * facts as the two JSON lines, one to a line under aligned labels.
 */
export function firstScreen(
  version: string,
  listening: SummaryLine,
  signIn: SignInLine | undefined,
): string {
  const row = (label: string, value: unknown) =>
    `  ${label.padEnd(9)}${String(value)}`;
  const { url, docs, ui, database } = listening.fields;
  const lines = [
    `Quitanda ${version} is ready`,
    row('API', url),
    row('Docs', docs),
    ...(ui ? [row('Web UI', ui)] : []),
    row('Database', database),
    ...(listening.fields['mail']
      ? [row('Mail', listening.fields['mail'])]
      : []),
  ];
  if (signIn) {
    lines.push(
      row(
        'Sign-in',
        signIn.where.charAt(0).toLowerCase() + signIn.where.slice(1),
      ),
      ...signIn.steps.map((step) => row('', step)),
    );
  }
  lines.push('  Stopping: Ctrl+C finishes in-flight requests, then exits');
  return lines.join('\n');
}

/** The migrations a start applied, as one line of the first screen. */
export function migrationsLine(count: number): string {
  return `Applied ${count} migration${count === 1 ? '' : 's'}`;
}

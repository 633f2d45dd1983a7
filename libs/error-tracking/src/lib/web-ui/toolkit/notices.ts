import type { Response } from 'express';

import { html } from '../../html/html';
import type { SafeHtml } from '../../html/html';

/**
 * Messages shown after a redirect (`?notice=key`): only these fixed texts,
 * so a link cannot put words on the page.
 */
const NOTICES = {
  'project-created': 'Project created. Enable error tracking to get a DSN.',
  'settings-saved': 'Error tracking settings saved.',
  'key-created': 'A new client key was created.',
  'key-deleted': 'The client key was deleted; it no longer accepts events.',
  'hook-created': 'Webhook added. It receives the next alerts.',
  'hook-deleted': 'Webhook deleted.',
  'hook-test-delivered': 'Test alert delivered: the receiver answered 2xx.',
  'hook-test-failed':
    'Test alert not accepted by the receiver; see its recent deliveries below.',
  'alert-rules-saved': 'Alert rules saved.',
  'alert-email-saved': 'Your e-mail preference was saved.',
  resolved: 'The error was marked as resolved.',
  ignored: 'The error is now ignored.',
  unresolved: 'The error was reopened.',
  'bulk-resolved': 'The selected errors were marked as resolved.',
  'bulk-ignored': 'The selected errors are now ignored.',
  'bulk-unresolved': 'The selected errors were reopened.',
  'nothing-selected': 'Select errors first, or tick "All errors matching".',
  'merge-needs-two': 'Select at least two errors to merge.',
  merged: 'The errors were merged into this one.',
  'issue-created': 'An issue was created from the error.',
  'issue-closed': 'The issue was closed.',
  'issue-reopened': 'The issue was reopened.',
  'password-changed':
    'Password successfully changed. Sign in with your new password.',
} as const;

export type NoticeKey = keyof typeof NOTICES;

export function noticeBanner(key: unknown): SafeHtml | null {
  const text =
    typeof key === 'string' && Object.hasOwn(NOTICES, key)
      ? NOTICES[key as NoticeKey]
      : undefined;
  return text
    ? html`<div class="alert alert-success" role="status">${text}</div>`
    : null;
}

/** `path?notice=key` (path is one of ours). */
export function withNotice(path: string, key: NoticeKey): string {
  return `${path}${path.includes('?') ? '&' : '?'}notice=${encodeURIComponent(key)}`;
}

/**
 * After a change on Settings > Monitor: back to the page (303) with the
 * notice, at `anchor` (`#alerts` for that section's forms).
 */
export function backToMonitor(
  res: Response,
  projectId: number,
  notice: NoticeKey,
  anchor = '',
): void {
  res.redirect(
    303,
    `${withNotice(`/projects/${projectId}/settings/monitor`, notice)}${anchor}`,
  );
}

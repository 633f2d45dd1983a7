import { createTransport } from 'nodemailer';
import type { Transporter } from 'nodemailer';

/** By default SMTP answers within this or the call fails. */
const SMTP_TIMEOUT_MS = 10_000;

/**
 * A nodemailer transport for an `smtp(s)://user:pass@host:port` URL, every
 * wait bounded: a stalled mail server fails the send instead of holding
 * the request (or the retrying worker) that waits on it.
 */
export function smtpTransport(
  url: string,
  timeoutMs = SMTP_TIMEOUT_MS,
): Transporter {
  return createTransport({
    url,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
  } as Parameters<typeof createTransport>[0]);
}

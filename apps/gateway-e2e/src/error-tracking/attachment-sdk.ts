import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The bytes attachment-sdk-client.js attaches for a size and seed. */
export function attachmentBytes(size: number, seed: number): Buffer {
  const data = Buffer.alloc(size);
  let x = seed >>> 0;
  for (let i = 0; i < size; i++) {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    data[i] = x >>> 24;
  }
  return data;
}

/** What attachment-sdk-client.js attaches besides the binary file. */
export const HTML_ATTACHMENT = '<script>alert(document.cookie)</script>';

/**
 * Reports one error with two attachments through @sentry/node
 * (attachment-sdk-client.js, its own process) to `dsn`: `heap dump.bin`
 * (`attachmentBytes(size, seed)`) and `report.html`; resolves to the
 * event's id once flushed.
 */
export async function reportWithAttachments(
  dsn: string,
  size: number,
  seed: number,
): Promise<string> {
  const { stdout } = await run(
    process.execPath,
    [join(__dirname, 'attachment-sdk-client.js')],
    {
      env: {
        ...process.env,
        SENTRY_DSN: dsn,
        ATTACHMENT_BYTES: String(size),
        SEED: String(seed),
        NODE_OPTIONS: '',
      },
      timeout: 60_000,
    },
  );
  const reported = JSON.parse(stdout) as { flushed: boolean; eventId: string };
  if (!reported.flushed) throw new Error(`SDK did not flush: ${stdout}`);
  return reported.eventId;
}

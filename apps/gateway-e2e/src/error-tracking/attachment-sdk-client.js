// Run by attachments.e2e-spec.ts in its own process (the SDK patches
// globals): reports one error with two attachments added to its scope (a
// binary one of ATTACHMENT_BYTES from a seed, and an HTML page), then
// flushes and prints the event's id.
const Sentry = require('@sentry/node');

Sentry.init({
  dsn: process.env.SENTRY_DSN,
  release: 'attachments-1.0.0',
  environment: 'e2e',
  tracesSampleRate: 0,
});

/** The same bytes the spec derives from the seed. */
function bytesOf(size, seed) {
  const data = new Uint8Array(size);
  let x = seed >>> 0;
  for (let i = 0; i < size; i++) {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    data[i] = x >>> 24;
  }
  return data;
}

let eventId;
Sentry.withScope((scope) => {
  scope.addAttachment({
    filename: 'heap dump.bin',
    data: bytesOf(
      Number(process.env.ATTACHMENT_BYTES),
      Number(process.env.SEED),
    ),
    contentType: 'application/octet-stream',
  });
  scope.addAttachment({
    filename: 'report.html',
    data: '<script>alert(document.cookie)</script>',
    contentType: 'text/html',
  });
  eventId = Sentry.captureException(new RangeError('attached boom'));
});

Sentry.close(10000).then((flushed) => {
  process.stdout.write(JSON.stringify({ flushed, eventId }) + '\n');
  process.exit(flushed ? 0 : 1);
});

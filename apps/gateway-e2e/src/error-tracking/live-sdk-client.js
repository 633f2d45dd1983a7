// Run by live-sdk.e2e-spec.ts in its own process (the SDK patches globals):
// reports one error three times from two lines for two users, and one
// message, to SENTRY_DSN, then flushes and exits.
const Sentry = require('@sentry/node');

Sentry.init({
  dsn: process.env.SENTRY_DSN,
  release: 'live-1.0.0',
  environment: 'e2e',
  tracesSampleRate: 0,
});

function failing(n) {
  throw new TypeError(`live boom ${n}`);
}

function run(n) {
  try {
    if (n % 2 === 1) {
      failing(n);
    } else {
      failing(n);
    }
  } catch (error) {
    Sentry.withScope((scope) => {
      scope.setUser({ id: n === 2 ? 'user-b' : 'user-a' });
      Sentry.captureException(error);
    });
  }
}

// One call site: the frames' source lines are the same text each time (two
// lines of \`run\` holding the same text are one throw moved by an edit).
for (const n of [1, 2, 3]) run(n);
Sentry.captureMessage('live message from the sdk', 'warning');

Sentry.close(10000).then((flushed) => {
  process.stdout.write(JSON.stringify({ flushed }) + '\n');
  process.exit(flushed ? 0 : 1);
});

// Run by the browser suite in its own process (the SDK patches globals):
// reports REPORTS (default 3) failures of an order checkout to SENTRY_DSN,
// grouped under one fingerprint, then flushes and exits.
const Sentry = require('@sentry/node');

Sentry.init({
  dsn: process.env.SENTRY_DSN,
  release: 'shop@2.4.1',
  environment: 'production',
  tracesSampleRate: 0,
});

function chargeCard(order) {
  if (order.total > 100) {
    throw new RangeError(`Card declined for order ${order.id}`);
  }
}

function checkout(order) {
  chargeCard(order);
}

const reports = Number(process.env.REPORTS || 3);
for (let i = 1; i <= reports; i++) {
  try {
    checkout({ id: i, total: 120 });
  } catch (error) {
    Sentry.withScope((scope) => {
      scope.setFingerprint(['checkout-card-declined']);
      scope.setUser({ id: `customer-${i % 2}` });
      Sentry.captureException(error);
    });
  }
}

Sentry.close(10000).then((flushed) => {
  process.stdout.write(JSON.stringify({ flushed }) + '\n');
  process.exit(flushed ? 0 : 1);
});

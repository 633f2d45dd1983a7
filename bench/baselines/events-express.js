// The framework's own ceiling: Express 5 (what the gateway's NestJS runs on,
// platform-express) with the same SQL as events-bare.js, one route per call,
// Express's body parser and `res.json`, and nothing else: no Nest, logging,
// metrics or validation classes. Quitanda cannot be faster than this; the
// gap between this server and events-bare.js is what Express alone costs.
'use strict';
const express = require('express');
const { pool, etag, toJson, getEvent, createEvent } = require('./events-sql');

const app = express();
app.disable('x-powered-by');
app.set('etag', false);

function send(res, status, body, headers = {}) {
  res.status(status).set(headers).type('application/json').send(body);
}

app.get('/health/ready', (_req, res) => send(res, 200, '{"status":"ok"}'));

app.get('/events/:id', async (req, res) => {
  const row = await getEvent(req.params.id);
  if (!row) return send(res, 404, '{"status":404}');
  send(res, 200, toJson(row), { ETag: etag(row) });
});

app.post('/events', express.json({ limit: '64kb' }), async (req, res) => {
  const row = await createEvent(req.body);
  if (!row) return send(res, 400, '{"status":400}');
  send(res, 201, toJson(row), {
    ETag: etag(row),
    Location: `/events/${row.id}`,
  });
});

app.use((_req, res) => send(res, 404, '{"status":404}'));
app.use((_err, _req, res, _next) => send(res, 500, '{"status":500}'));

const server = app.listen(Number(process.env.PORT), '127.0.0.1');
server.keepAliveTimeout = 5000;
process.on('SIGTERM', () =>
  server.close(() => pool.end().then(() => process.exit(0))),
);

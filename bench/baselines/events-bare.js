// The ceiling the events API is measured against: bare node:http + pg doing
// the same SQL as Quitanda's events repository, with the minimum of
// validation and no framework, logging or metrics.
'use strict';
const http = require('node:http');
const { pool, etag, toJson, getEvent, createEvent } = require('./events-sql');

function send(res, status, body, headers = {}) {
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  res.end(body);
}

function readBody(req, limit) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    req.on('data', (chunk) => {
      size += chunk.length;
      if (size > limit) reject(new Error('too large'));
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

const server = http.createServer(async (req, res) => {
  try {
    const [path] = req.url.split('?');
    if (req.method === 'GET' && path.startsWith('/events/')) {
      const row = await getEvent(path.slice('/events/'.length));
      if (!row) return send(res, 404, '{"status":404}');
      return send(res, 200, toJson(row), { ETag: etag(row) });
    }
    if (req.method === 'POST' && (path === '/events' || path === '/events/')) {
      const row = await createEvent(JSON.parse(await readBody(req, 64 * 1024)));
      if (!row) return send(res, 400, '{"status":400}');
      return send(res, 201, toJson(row), {
        ETag: etag(row),
        Location: `/events/${row.id}`,
      });
    }
    if (req.method === 'GET' && path === '/health/ready')
      return send(res, 200, '{"status":"ok"}');
    send(res, 404, '{"status":404}');
  } catch {
    send(res, 500, '{"status":500}');
  }
});

server.keepAliveTimeout = 5000;
server.listen(Number(process.env.PORT), '127.0.0.1');
process.on('SIGTERM', () =>
  server.close(() => pool.end().then(() => process.exit(0))),
);

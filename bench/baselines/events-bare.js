// The ceiling the events API is measured against: bare node:http + pg doing
// the same SQL as Quitanda's events repository (same table, same columns),
// with the minimum of validation and no framework, logging or metrics.
'use strict';
const http = require('node:http');
const { createHash } = require('node:crypto');
const { Pool } = require('pg');
const { v7: uuidv7, validate } = require('uuid');

const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const COLUMNS = 'id, title, description, version, created_at, updated_at';

function etag(row) {
  return `"${row.version}-${createHash('sha256').update(row.id).digest('hex').slice(0, 8)}"`;
}

function toJson(row) {
  return JSON.stringify({
    id: row.id,
    title: row.title,
    description: row.description,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  });
}

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
      const id = path.slice('/events/'.length);
      if (!validate(id)) return send(res, 404, '{"status":404}');
      const { rows } = await pool.query(
        `SELECT ${COLUMNS} FROM events.events WHERE id = $1`,
        [id],
      );
      if (!rows[0]) return send(res, 404, '{"status":404}');
      return send(res, 200, toJson(rows[0]), { ETag: etag(rows[0]) });
    }
    if (req.method === 'POST' && (path === '/events' || path === '/events/')) {
      const input = JSON.parse(await readBody(req, 64 * 1024));
      const title = input.title;
      const description = input.description ?? '';
      if (
        typeof title !== 'string' ||
        title.trim().length < 1 ||
        title.trim().length > 200
      ) {
        return send(res, 400, '{"status":400}');
      }
      const now = new Date();
      const { rows } = await pool.query(
        `INSERT INTO events.events (id, title, description, version, created_at, updated_at)
         VALUES ($1, $2, $3, 1, $4, $4) RETURNING ${COLUMNS}`,
        [uuidv7(), title, description, now],
      );
      return send(res, 201, toJson(rows[0]), {
        ETag: etag(rows[0]),
        Location: `/events/${rows[0].id}`,
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

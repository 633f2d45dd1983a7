// The ceiling the marketplace is measured against: bare node:http + pg doing
// the same SQL as Quitanda's marketplace for the three contract workloads
// (list products with expanded images, one producer's assortment, create an
// assortment), with app-secret auth and no framework, logging or metrics.
'use strict';
const http = require('node:http');
const {
  createHash,
  createHmac,
  randomBytes,
  timingSafeEqual,
} = require('node:crypto');
const { Pool } = require('pg');

const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const apps = new Map();

function send(res, status, body) {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
}

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

async function appOf(appKey) {
  const cached = apps.get(appKey);
  if (cached && Date.now() - cached.at < 5000) return cached.app;
  const { rows } = await pool.query(
    'SELECT app_key, app_secret_digest, signing_key FROM marketplace.apps WHERE app_key = $1',
    [appKey],
  );
  if (rows[0]) apps.set(appKey, { app: rows[0], at: Date.now() });
  return rows[0];
}

function authorised(app, header) {
  const decoded = Buffer.from(
    (header || '').replace(/^Basic /i, ''),
    'base64',
  ).toString();
  const secret = decoded.slice(decoded.indexOf(':') + 1);
  const digest = createHash('sha256').update(secret).digest('hex');
  return timingSafeEqual(
    Buffer.from(digest),
    Buffer.from(app.app_secret_digest),
  );
}

async function expand(app, base, docs) {
  const ids = docs.map((d) => d.image && d.image._id).filter(Boolean);
  if (ids.length === 0) return docs;
  const { rows } = await pool.query(
    'SELECT id, doc, generation FROM marketplace.files WHERE app_key = $1 AND id = ANY($2::text[])',
    [app.app_key, ids],
  );
  const files = new Map(rows.map((r) => [r.id, r]));
  return docs.map((doc) => {
    const file = doc.image && files.get(doc.image._id);
    if (!file) return doc;
    const sig = createHmac('sha256', app.signing_key)
      .update(`download\n${app.app_key}\n${file.id}\n${file.generation}\n0`)
      .digest('base64url');
    const url = `${base}/blob/${app.app_key}/_download/${file.id}?generation=${file.generation}&expires=0&signature=${sig}`;
    return {
      ...doc,
      image: { ...file.doc, _downloadURL: url, _type: doc.image._type },
    };
  });
}

const server = http.createServer(async (req, res) => {
  try {
    const url = new URL(req.url, `http://${req.headers.host}`);
    if (url.pathname === '/health/ready')
      return send(res, 200, '{"status":"ok"}');
    const match = /^\/appdata\/([^/]+)\/([^/]+)\/?$/.exec(url.pathname);
    if (!match) return send(res, 404, '{"error":"NotFound"}');
    const app = await appOf(match[1]);
    if (!app) return send(res, 404, '{"error":"AppNotFound"}');
    if (!authorised(app, req.headers.authorization))
      return send(res, 401, '{"error":"InvalidCredentials"}');
    const collection = match[2];
    if (req.method === 'GET') {
      const query = url.searchParams.get('query');
      const params = [app.app_key, collection];
      let where = 't.app_key = $1 AND t.collection = $2';
      if (query) {
        // The SQL Quitanda's compiler writes for {"id_producer": <text>}.
        const producer = JSON.parse(query).id_producer;
        params.push(
          JSON.stringify({ id_producer: producer }),
          JSON.stringify({ id_producer: [producer] }),
        );
        where += ' AND (t.doc @> $3::jsonb OR t.doc @> $4::jsonb)';
      }
      const limit = Number(url.searchParams.get('limit') || 10001);
      params.push(limit, 0);
      const { rows } = await pool.query(
        `SELECT t.doc FROM marketplace.records t WHERE ${where} ORDER BY t.created_at, t.id LIMIT $${params.length - 1} OFFSET $${params.length}`,
        params,
      );
      const docs = await expand(
        app,
        `http://${req.headers.host}`,
        rows.map((r) => r.doc),
      );
      return send(res, 200, docs);
    }
    if (req.method === 'POST') {
      const body = JSON.parse(await readBody(req));
      if (typeof body.id_producer !== 'string' || !Array.isArray(body.products))
        return send(res, 400, '{"error":"BadRequest"}');
      const producer = await pool.query(
        'SELECT 1 FROM marketplace.users WHERE app_key = $1 AND id = $2',
        [app.app_key, body.id_producer],
      );
      if (producer.rows.length === 0)
        return send(res, 400, '{"error":"BadRequest"}');
      const now = new Date();
      const id =
        Math.floor(now.getTime() / 1000).toString(16) +
        randomBytes(8).toString('hex');
      const doc = {
        ...body,
        _id: id,
        _acl: { creator: app.app_key },
        _kmd: { ect: now.toISOString(), lmt: now.toISOString() },
      };
      await pool.query(
        `WITH gone AS (DELETE FROM marketplace.record_tombstones WHERE app_key = $1 AND collection = $2 AND id = $3)
         INSERT INTO marketplace.records (app_key, collection, id, doc, creator, unique_name, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, NULL, $6, $6)`,
        [app.app_key, collection, id, doc, app.app_key, now],
      );
      return send(res, 201, doc);
    }
    send(res, 405, '{"error":"MethodNotAllowed"}');
  } catch {
    send(res, 500, '{"error":"KinveyInternalErrorRetry"}');
  }
});

server.keepAliveTimeout = 5000;
server.listen(Number(process.env.PORT), '127.0.0.1');
process.on('SIGTERM', () =>
  server.close(() => pool.end().then(() => process.exit(0))),
);

// The ceiling the marketplace is measured against: the least work that
// answers the three contract calls correctly (list products with expanded
// images, one producer's assortment, create an assortment), with the same
// responses as Quitanda's. Its own data layout (marketplace-bare.schema.sql:
// a table per collection, the queried field as a column, one index per call,
// documents kept as JSON text), its own SQL, and answers joined from that text
// without parsing it (PostgreSQL's json_agg, or Node concatenating rows). No
// framework, logging or metrics. It shares no SQL or table with Quitanda, so
// the ratio measures Quitanda's design too.
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
/** Kinvey's own limit on one result set. */
const RESULT_SET_CAP = 10000;

function send(res, status, body) {
  res.writeHead(status, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(body),
  });
  res.end(body);
}

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** The app, cached for 5 s so that a changed secret takes effect. */
async function appOf(appKey) {
  const cached = apps.get(appKey);
  if (cached && Date.now() - cached.at < 5000) return cached.app;
  const { rows } = await pool.query(
    'SELECT app_key, app_secret_digest, signing_key FROM bench_bare.apps WHERE app_key = $1',
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
  if (decoded.slice(0, decoded.indexOf(':')) !== app.app_key) return false;
  const secret = decoded.slice(decoded.indexOf(':') + 1);
  const digest = createHash('sha256').update(secret).digest('hex');
  return timingSafeEqual(
    Buffer.from(digest),
    Buffer.from(app.app_secret_digest),
  );
}

// The products in creation order, each with its image file's document.
const LIST_PRODUCTS = `
  SELECT p.doc::text AS doc, p.image_id, p.image_type, f.id AS file_id, f.generation, f.doc::text AS file
    FROM bench_bare.products p
    LEFT JOIN bench_bare.files f ON f.app_key = p.app_key AND f.id = p.image_id
   WHERE p.app_key = $1
   ORDER BY p.created_at, p.id LIMIT $2`;

const PRODUCER_ASSORTMENT = `
  SELECT coalesce(json_agg(t.doc ORDER BY t.created_at, t.id), '[]')::text AS body
    FROM (SELECT doc, created_at, id FROM bench_bare.assortments
           WHERE app_key = $1 AND id_producer = $2
           ORDER BY created_at, id LIMIT $3) t`;

const CREATE_ASSORTMENT = `
  INSERT INTO bench_bare.assortments (app_key, id_producer, created_at, id, doc)
  SELECT $1, $2, $3, $4, $5
   WHERE EXISTS (SELECT 1 FROM bench_bare.producers WHERE app_key = $1 AND id = $2)`;

function limitOf(url) {
  const limit = Number(url.searchParams.get('limit') || RESULT_SET_CAP);
  return Number.isInteger(limit) && limit > 0
    ? Math.min(limit, RESULT_SET_CAP)
    : RESULT_SET_CAP;
}

/**
 * Each product's JSON text with its image file's in place of the reference,
 * and the file's permanent signed download URL (HMAC-SHA256 of purpose,
 * app, file, generation and expiry 0, base64url): strings joined, nothing
 * parsed.
 */
function productsJson(app, base, rows) {
  const docs = rows.map((row) => {
    const head = row.doc.slice(0, row.doc.lastIndexOf('}'));
    if (row.image_id === null) return row.doc;
    // A reference to a file that no longer exists is returned as it is.
    if (row.file === null)
      return `${head}, "image": ${JSON.stringify({ _type: row.image_type, _id: row.image_id })}}`;
    const signature = createHmac('sha256', app.signing_key)
      .update(`download\n${app.app_key}\n${row.file_id}\n${row.generation}\n0`)
      .digest('base64url');
    const url = `${base}/blob/${app.app_key}/_download/${row.file_id}?generation=${row.generation}&expires=0&signature=${signature}`;
    return `${head}, "image": ${row.file.slice(0, row.file.lastIndexOf('}'))}, "_downloadURL": ${JSON.stringify(url)}, "_type": ${JSON.stringify(row.image_type)}}}`;
  });
  return `[${docs.join(',')}]`;
}

async function list(app, collection, url, host) {
  if (collection === 'product') {
    const { rows } = await pool.query(LIST_PRODUCTS, [
      app.app_key,
      limitOf(url),
    ]);
    return productsJson(app, `http://${host}`, rows);
  }
  if (collection === 'availableAssortment') {
    const producer = JSON.parse(
      url.searchParams.get('query') || '{}',
    ).id_producer;
    if (typeof producer !== 'string') return undefined;
    const { rows } = await pool.query(PRODUCER_ASSORTMENT, [
      app.app_key,
      producer,
      limitOf(url),
    ]);
    return rows[0].body;
  }
  return undefined;
}

const ITEM_FIELDS = ['name', 'measurement', 'quantity', 'price'];

/** The collection's rules, as Quitanda checks them: a producer and items. */
function validAssortment(body) {
  return (
    typeof body.id_producer === 'string' &&
    Array.isArray(body.products) &&
    body.products.every(
      (item) =>
        item !== null &&
        typeof item === 'object' &&
        ITEM_FIELDS.every((field) => typeof item[field] === 'string'),
    )
  );
}

async function create(app, collection, body) {
  if (collection !== 'availableAssortment' || !validAssortment(body))
    return undefined;
  const now = new Date();
  const id =
    Math.floor(now.getTime() / 1000).toString(16) +
    randomBytes(8).toString('hex');
  const iso = now.toISOString();
  const doc = JSON.stringify({
    ...body,
    _id: id,
    _acl: { creator: app.app_key },
    _kmd: { ect: iso, lmt: iso },
  });
  const { rowCount } = await pool.query(CREATE_ASSORTMENT, [
    app.app_key,
    body.id_producer,
    now,
    id,
    doc,
  ]);
  return rowCount === 1 ? doc : undefined;
}

const server = http.createServer(async (req, res) => {
  try {
    const url = new URL(req.url, 'http://localhost');
    if (url.pathname === '/health/ready')
      return send(res, 200, '{"status":"ok"}');
    const match = /^\/appdata\/([^/]+)\/([^/]+)\/?$/.exec(url.pathname);
    if (!match) return send(res, 404, '{"error":"NotFound"}');
    const app = await appOf(match[1]);
    if (!app) return send(res, 404, '{"error":"AppNotFound"}');
    if (!authorised(app, req.headers.authorization))
      return send(res, 401, '{"error":"InvalidCredentials"}');
    if (req.method === 'GET') {
      const body = await list(app, match[2], url, req.headers.host);
      return body === undefined
        ? send(res, 400, '{"error":"BadRequest"}')
        : send(res, 200, body);
    }
    if (req.method === 'POST') {
      const doc = await create(app, match[2], JSON.parse(await readBody(req)));
      return doc === undefined
        ? send(res, 400, '{"error":"BadRequest"}')
        : send(res, 201, doc);
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

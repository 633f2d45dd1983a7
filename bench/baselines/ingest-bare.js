// The ceiling the collector is measured against: a bare node:http server that
// parses the same Sentry requests (decompression, envelope framing, every
// item's JSON) and writes their events durably with group commit (one
// INSERT per flush, acknowledging each request after its flush commits), with
// no framework, authentication, grouping or aggregates.
'use strict';
const http = require('node:http');
const zlib = require('node:zlib');
const { Pool } = require('pg');

const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 4 });
let pending = [];
let flushing = false;
let ready = false;

async function flush() {
  flushing = true;
  while (pending.length > 0) {
    const batch = pending.splice(0, 2000);
    try {
      await pool.query(
        `INSERT INTO bench_baseline.ingested_events (event_id, project_id, payload)
         SELECT * FROM unnest($1::uuid[], $2::int[], $3::jsonb[]) ON CONFLICT DO NOTHING`,
        [
          batch.map((e) => e.id),
          batch.map((e) => e.project),
          batch.map((e) => e.payload),
        ],
      );
      for (const e of batch) e.done();
    } catch (error) {
      for (const e of batch) e.fail(error);
    }
  }
  flushing = false;
}

function save(id, project, payload) {
  return new Promise((done, fail) => {
    pending.push({ id, project, payload, done, fail });
    if (!flushing) setImmediate(flush);
  });
}

function decode(req, body) {
  const encoding = (req.headers['content-encoding'] || '').trim().toLowerCase();
  if (encoding === 'gzip')
    return zlib.gunzipSync(body, { maxOutputLength: 100 * 1024 * 1024 });
  if (encoding === 'deflate') return zlib.inflateSync(body);
  return body;
}

function hexId(id) {
  const hex = String(id).replace(/-/g, '').toLowerCase();
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** Envelope framing: header line, then items (header line + `length` bytes or one line). */
function parseEnvelope(buffer) {
  let offset = buffer.indexOf(10);
  const header = JSON.parse(
    buffer.subarray(0, offset < 0 ? buffer.length : offset).toString('utf8'),
  );
  const items = [];
  offset = offset < 0 ? buffer.length : offset + 1;
  while (offset < buffer.length) {
    let end = buffer.indexOf(10, offset);
    if (end < 0) end = buffer.length;
    const itemHeader = JSON.parse(
      buffer.subarray(offset, end).toString('utf8'),
    );
    offset = end + 1;
    let payloadEnd;
    if (typeof itemHeader.length === 'number')
      payloadEnd = offset + itemHeader.length;
    else {
      payloadEnd = buffer.indexOf(10, offset);
      if (payloadEnd < 0) payloadEnd = buffer.length;
    }
    items.push({
      header: itemHeader,
      payload: JSON.parse(buffer.subarray(offset, payloadEnd).toString('utf8')),
    });
    offset = payloadEnd + 1;
  }
  return { header, items };
}

const ROUTE =
  /^\/api\/v4\/error_tracking\/collector\/api\/(\d+)\/(envelope|store)\/?(?:\?|$)/;

http
  .createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', async () => {
      try {
        const match = ROUTE.exec(req.url);
        if (req.method !== 'POST' || !match) {
          res
            .writeHead(req.url === '/health/ready' && ready ? 200 : 404)
            .end('{}');
          return;
        }
        const project = Number(match[1]);
        const body = decode(req, Buffer.concat(chunks));
        let firstId;
        if (match[2] === 'store') {
          const event = JSON.parse(body.toString('utf8'));
          firstId = hexId(event.event_id);
          await save(firstId, project, JSON.stringify(event));
        } else {
          const envelope = parseEnvelope(body);
          const writes = [];
          for (const item of envelope.items) {
            if (item.header.type !== 'event') continue;
            const id = hexId(envelope.header.event_id || item.payload.event_id);
            firstId = firstId || id;
            writes.push(save(id, project, JSON.stringify(item.payload)));
          }
          await Promise.all(writes);
        }
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(
          JSON.stringify(firstId ? { id: firstId.replace(/-/g, '') } : {}),
        );
      } catch {
        res.writeHead(400, { 'Content-Type': 'application/json' });
        res.end('{"detail":"bad request"}');
      }
    });
  })
  .listen(Number(process.env.PORT), '127.0.0.1', async () => {
    await pool.query('CREATE SCHEMA IF NOT EXISTS bench_baseline');
    await pool.query(
      `CREATE TABLE IF NOT EXISTS bench_baseline.ingested_events (
         event_id uuid PRIMARY KEY, project_id int NOT NULL,
         received_at timestamptz NOT NULL DEFAULT now(), payload jsonb NOT NULL)`,
    );
    ready = true;
  });

process.on('SIGTERM', () => pool.end().then(() => process.exit(0)));

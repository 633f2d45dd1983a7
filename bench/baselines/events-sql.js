// What both events ceilings share: the pool, the same SQL as Quitanda's
// events repository (same table, same columns), the ETag and the JSON body,
// so the two baselines differ only in how HTTP is served.
'use strict';
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

/** The row, or undefined for an unknown or malformed id. */
async function getEvent(id) {
  if (!validate(id)) return undefined;
  const { rows } = await pool.query(
    `SELECT ${COLUMNS} FROM events.events WHERE id = $1`,
    [id],
  );
  return rows[0];
}

/** The created row, or undefined when the input is invalid. */
async function createEvent(input) {
  const title = input?.title;
  const description = input?.description ?? '';
  if (
    typeof title !== 'string' ||
    title.trim().length < 1 ||
    title.trim().length > 200
  ) {
    return undefined;
  }
  const now = new Date();
  const { rows } = await pool.query(
    `INSERT INTO events.events (id, title, description, version, created_at, updated_at)
     VALUES ($1, $2, $3, 1, $4, $4) RETURNING ${COLUMNS}`,
    [uuidv7(), title, description, now],
  );
  return rows[0];
}

module.exports = { pool, etag, toJson, getEvent, createEvent };

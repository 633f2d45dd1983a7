import { parse } from 'pg-connection-string';

export interface ConnectionFields {
  host?: string;
  port?: number;
  username?: string;
  password?: string;
  database?: string;
  ssl?: boolean | { rejectUnauthorized: boolean };
}

/**
 * Splits a `postgres://` URL into the fields TypeORM passes to `pg`.
 *
 * TypeORM's own URL parsing drops `?host=/socket/dir`, which the embedded
 * database uses to listen on a Unix socket; parsing with `pg`'s own parser
 * keeps every form `pg` understands.
 */
export function connectionFieldsFromUrl(url: string): ConnectionFields {
  const parsed = parse(url);
  const fields: ConnectionFields = {};
  if (parsed.host) fields.host = parsed.host;
  if (parsed.port) fields.port = Number(parsed.port);
  if (parsed.user) fields.username = decodeURIComponent(parsed.user);
  if (parsed.password) fields.password = parsed.password;
  if (parsed.database) fields.database = parsed.database;
  if (parsed.ssl === true || (parsed.ssl && typeof parsed.ssl === 'object')) {
    fields.ssl =
      typeof parsed.ssl === 'object'
        ? { rejectUnauthorized: parsed.ssl.rejectUnauthorized !== false }
        : true;
  }
  return fields;
}

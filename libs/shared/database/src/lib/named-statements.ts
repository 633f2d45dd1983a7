import { createHash } from 'node:crypto';

import type { Pool } from 'pg';

/** The pool option (in TypeORM's `extra`) that turns named statements on. */
const OPTION = 'quitandaNamedStatements';

/**
 * The pool options that let `Sql.prepared` send named prepared statements:
 * PostgreSQL then parses and plans each such statement once per server
 * session instead of on every call (2.4 ms of the ingestion flush's 2.8 ms
 * for a one-event batch). Only where each client connection is one server
 * session of its own: not PgBouncer's transaction pooling before 1.21, nor
 * a server that several connections share (the embedded PGlite).
 */
export function namedStatements(on: boolean): Record<string, boolean> {
  return { [OPTION]: on };
}

function optionsOf(pool: Pool): Record<string, unknown> {
  return pool.options as unknown as Record<string, unknown>;
}

export function hasNamedStatements(pool: Pool): boolean {
  return optionsOf(pool)[OPTION] === true;
}

/**
 * SQLSTATEs of a named statement meeting a server session that is not the
 * one its connection prepared it in (a pooler or a shared session put it
 * elsewhere): "already exists" at Parse, "does not exist" at Bind. Both come
 * before the statement runs, so running it again unnamed is safe.
 */
const FOREIGN_SESSION = new Set(['42P05', '26000']);

/**
 * After a named statement met a foreign session: the pool sends unnamed
 * statements from now on and the operator is told once. True when `error`
 * was that, so the caller runs its statement again unnamed.
 */
export function fallBackFromNamedStatements(
  pool: Pool,
  error: unknown,
): boolean {
  const code = (error as { code?: unknown }).code;
  if (typeof code !== 'string' || !FOREIGN_SESSION.has(code)) return false;
  if (hasNamedStatements(pool)) {
    optionsOf(pool)[OPTION] = false;
    process.emitWarning(
      'Named prepared statements do not survive this database connection ' +
        '(a transaction-pooling PgBouncer before 1.21?): sending unnamed ' +
        'statements from now on. Set DB_PREPARED_STATEMENTS=false to say so.',
      { code: 'QUITANDA_NAMED_STATEMENTS' },
    );
  }
  return true;
}

const MAX_NAMES = 256;
/** Text -> name: the digest of an 8 KB statement is not worth redoing per call. */
const NAMES = new Map<string, string>();

/**
 * The statement's server-side name: the call site's name and a digest of
 * the text, so one name always means one text (a name is never reused for
 * another statement, whichever session it lands in). Undefined past
 * `MAX_NAMES` texts: call sites' texts are fixed, and a caller that passes
 * built text by mistake must not fill every server session with statements.
 */
export function statementName(name: string, text: string): string | undefined {
  let named = NAMES.get(text);
  if (named === undefined && NAMES.size < MAX_NAMES) {
    const digest = createHash('sha256').update(text).digest('hex');
    named = `${name}_${digest.slice(0, 16)}`;
    NAMES.set(text, named);
  }
  return named;
}

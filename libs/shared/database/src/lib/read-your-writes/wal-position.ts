/**
 * A WAL position (`pg_lsn`), as a number that compares: PostgreSQL prints
 * it as two hexadecimal halves, `16/B374D848`.
 */
export type WalPosition = bigint;

/** What `pg_lsn` prints. */
export const WAL_POSITION = /^([0-9A-F]{1,8})\/([0-9A-F]{1,8})$/i;

export function parseWalPosition(text: string): WalPosition {
  const match = WAL_POSITION.exec(text);
  if (!match) throw new Error(`Not a WAL position: ${text}`);
  return (
    (BigInt(`0x${match[1] as string}`) << 32n) |
    BigInt(`0x${match[2] as string}`)
  );
}

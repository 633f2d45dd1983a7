import { parseWalPosition } from './wal-position';

describe('parseWalPosition', () => {
  it('orders positions as PostgreSQL does', () => {
    expect(parseWalPosition('0/16B3748')).toBe(0x16b3748n);
    expect(parseWalPosition('1/0')).toBeGreaterThan(
      parseWalPosition('0/FFFFFFFF'),
    );
    expect(parseWalPosition('FFFFFFFF/FFFFFFFF')).toBe((1n << 64n) - 1n);
  });

  it('refuses what is no position', () => {
    expect(() => parseWalPosition('16B3748')).toThrow(/Not a WAL position/);
    expect(() => parseWalPosition('0/G')).toThrow(/Not a WAL position/);
  });
});

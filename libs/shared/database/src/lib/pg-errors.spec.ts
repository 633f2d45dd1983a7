import { isConnectionFailure, isUniqueViolation } from './pg-errors';

describe('pg error classification', () => {
  it('recognises unique violations, optionally of one constraint', () => {
    const error = { code: '23505', constraint: 'products_name_key' };
    expect(isUniqueViolation(error)).toBe(true);
    expect(isUniqueViolation(error, 'products_name_key')).toBe(true);
    expect(isUniqueViolation(error, 'other')).toBe(false);
    expect(isUniqueViolation({ driverError: error })).toBe(true);
    expect(isUniqueViolation({ code: '23503' })).toBe(false);
    expect(isUniqueViolation(undefined)).toBe(false);
  });

  it('recognises an unreachable database', () => {
    expect(isConnectionFailure({ code: 'ECONNREFUSED' })).toBe(true);
    expect(isConnectionFailure({ code: '57P01' })).toBe(true);
    expect(
      isConnectionFailure(new Error('timeout exceeded when trying to connect')),
    ).toBe(true);
    // A stalled database: `query_timeout` passed (see bounded-waits).
    expect(isConnectionFailure(new Error('Query read timeout'))).toBe(true);
    expect(isConnectionFailure({ code: '42P01' })).toBe(false);
    expect(isConnectionFailure(new Error('syntax error'))).toBe(false);
  });
});

import { ErrorTrackingErrorCode } from '../common/error-tracking.errors';
import { MAX_IGNORE_MINUTES } from './error.types';
import { ignoreUntilOf } from './ignore-until';

const named = (minutes: unknown, events: unknown, users: unknown) => ({
  minutes: { name: 'ignore_minutes', value: minutes },
  events: { name: 'ignore_count', value: events },
  users: { name: 'ignore_user_count', value: users },
});

describe('ignoreUntilOf', () => {
  it('keeps the conditions given, as numbers (digits in a string too)', () => {
    expect(ignoreUntilOf('ignored', named(30, '10', undefined))).toEqual({
      minutes: 30,
      events: 10,
    });
    expect(ignoreUntilOf('ignored', named(null, undefined, 3))).toEqual({
      users: 3,
    });
    expect(
      ignoreUntilOf('resolved', named(undefined, null, undefined)),
    ).toEqual({});
  });

  it.each([0, -1, 1.5, 'soon', true, MAX_IGNORE_MINUTES + 1])(
    'refuses %p minutes in its own words',
    (value) => {
      expect(() => ignoreUntilOf('ignored', named(value, 1, 1))).toThrow(
        expect.objectContaining({
          code: ErrorTrackingErrorCode.InvalidParameter,
          message: `ignore_minutes does not have a valid value (a whole number from 1 to ${MAX_IGNORE_MINUTES})`,
        }),
      );
    },
  );

  it('refuses a condition on any status but ignored', () => {
    expect(() =>
      ignoreUntilOf('resolved', named(undefined, 5, undefined)),
    ).toThrow(
      'ignore_minutes, ignore_count, ignore_user_count are only valid with status ignored',
    );
  });
});

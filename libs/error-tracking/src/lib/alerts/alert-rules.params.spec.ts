import { ErrorTrackingError } from '../common/error-tracking.errors';
import { Params } from '../http/params';
import { readAlertRules } from './alert-rules.params';

function read(source: Record<string, unknown>) {
  const params = new Params(source);
  const rules = readAlertRules(params, source);
  params.check();
  return rules;
}

describe('alert rules parameters', () => {
  it('reads a threshold and a window, defaulting the window to 60', () => {
    expect(
      read({ frequent_threshold: 100, frequent_window_minutes: 5 }),
    ).toEqual({
      frequentThreshold: 100,
      frequentWindowMinutes: 5,
    });
    expect(read({ frequent_threshold: '7' })).toEqual({
      frequentThreshold: 7,
      frequentWindowMinutes: 60,
    });
  });

  it('turns `frequent` off with null, an empty value or "off"', () => {
    for (const off of [null, '', 'off', 'null'])
      expect(read({ frequent_threshold: off })).toEqual({
        frequentThreshold: null,
        frequentWindowMinutes: 60,
      });
  });

  it("reports Grape's messages for everything wrong at once", () => {
    expect(() => read({})).toThrow(
      new ErrorTrackingError(
        ErrorTrackingError.invalidParameter('').code,
        'frequent_threshold is missing',
      ),
    );
    expect(() =>
      read({ frequent_threshold: 'lots', frequent_window_minutes: 0 }),
    ).toThrow(
      'frequent_threshold is invalid, frequent_window_minutes does not have a valid value',
    );
    expect(() => read({ frequent_threshold: 0 })).toThrow(
      'frequent_threshold does not have a valid value',
    );
  });
});

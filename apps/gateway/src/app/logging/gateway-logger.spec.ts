import { logFormatOf } from './gateway-logger';

describe('logFormatOf', () => {
  it('is pretty on a terminal and JSON anywhere else, unless told', () => {
    expect(logFormatOf('auto', { isTTY: true })).toBe('pretty');
    expect(logFormatOf('auto', { isTTY: false })).toBe('json');
    expect(logFormatOf('auto', {})).toBe('json');
    expect(logFormatOf('json', { isTTY: true })).toBe('json');
    expect(logFormatOf('pretty', { isTTY: false })).toBe('pretty');
  });
});

import { isJsonContentType } from './content-type';

describe('isJsonContentType', () => {
  it.each([
    ['application/json', true],
    ['application/json; charset=utf-8', true],
    ['Application/JSON', true],
    ['application/merge-patch+json', true],
    ['application/problem+json;charset=utf-8', true],
    ['text/plain', false],
    ['application/x-www-form-urlencoded', false],
    ['application/jsonx', false],
    [undefined, false],
    ['', false],
  ])('%s -> %s', (header, expected) => {
    expect(isJsonContentType(header)).toBe(expected);
  });
});

import { JsonText } from './json-text';

describe('JsonText', () => {
  it('serialises as the value its text holds when nested in other output', () => {
    const body = { items: new JsonText('[{"a": 1}, {"b": "x"}]') };
    expect(JSON.stringify(body)).toBe('{"items":[{"a":1},{"b":"x"}]}');
  });
});

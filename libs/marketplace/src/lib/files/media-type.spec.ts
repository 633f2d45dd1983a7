import { isMediaType } from './media-type';

describe('media types a file may declare', () => {
  it('takes type/subtype with parameters', () => {
    for (const value of [
      'image/png',
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      'text/plain; charset=utf-8',
      'text/plain;charset="utf-8"; format=flowed',
      'multipart/mixed; boundary="a b\\"c"',
    ])
      expect(isMediaType(value)).toBe(true);
  });

  it('refuses control characters, missing parts and absurd lengths', () => {
    for (const value of [
      '',
      'text',
      'text/',
      '/plain',
      'text/plain\r\nSet-Cookie: a=b',
      'text/plain\n',
      'text/pl\u0000ain',
      'text/plain; charset="a\r\nb"',
      'text/plain; charset',
      'text/plain;',
      'text /plain',
      `image/${'x'.repeat(250)}`,
    ])
      expect(isMediaType(value)).toBe(false);
  });
});

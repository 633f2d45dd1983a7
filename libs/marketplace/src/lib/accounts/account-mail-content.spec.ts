import { quoted, usernamesMail } from './account-mail-content';

describe('quoted', () => {
  it('keeps a user-chosen text on one line between quotes, escapes included', () => {
    expect(quoted('ana')).toBe('"ana"');
    expect(quoted('a "b" \\ c\r\nd')).toBe('"a \\"b\\" \\\\ c\\r\\nd"');
    expect(quoted('joão')).toBe('"joão"');
  });

  it('escapes characters that break or reorder a line unseen', () => {
    expect(quoted('a\u2028b\u202ec\u200bd\u0085e')).toBe(
      '"a\\u2028b\\u202ec\\u200bd\\u0085e"',
    );
  });
});

describe('usernamesMail', () => {
  it('lists each username as a quoted field', () => {
    expect(usernamesMail(['ana', 'Call +1 555\nnow']).text).toContain(
      '\n\n"ana"\n"Call +1 555\\nnow"\n',
    );
  });
});

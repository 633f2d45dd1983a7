import { isMailbox, mailboxOf } from './mailbox';

describe('isMailbox', () => {
  it.each([
    'ana@example.org',
    'Ana.Maria+tag@mail.example.co',
    "o'neil!#$%&*/=?^_`{|}~-@x.example",
    'v0@t',
    `${'a'.repeat(64)}@example.org`,
  ])('takes %s', (address) => expect(isMailbox(address)).toBe(true));

  it.each([
    ['a list', 'v0@t.example, v1@t.example'],
    ['a list without space', 'v0@t.example,v1@t.example'],
    ['a group list', 'v0@t.example;v1@t.example'],
    ['a display name', 'Ana <ana@example.org>'],
    ['a quoted local part', '"ana maria"@example.org'],
    ['a comment', 'ana(me)@example.org'],
    ['a header break', 'ana@example.org\r\nBcc: v1@example.org'],
    ['a space', 'ana @example.org'],
    ['an address literal', 'ana@[127.0.0.1]'],
    ['two at signs', 'ana@x@example.org'],
    ['no at sign', 'example.org'],
    ['a leading dot', '.ana@example.org'],
    ['two dots', 'ana..maria@example.org'],
    ['a hyphen-ended label', 'ana@example-.org'],
    ['non-ASCII', 'joão@example.org'],
    ['a 65-character local part', `${'a'.repeat(65)}@example.org`],
    [
      '255 characters',
      `ana@${'a'.repeat(60)}.${'b'.repeat(60)}.${'c'.repeat(60)}.${'d'.repeat(66)}`,
    ],
    ['not a string', 42],
  ])('refuses %s', (_case, address) => expect(isMailbox(address)).toBe(false));
});

describe('mailboxOf', () => {
  it('is the stored email, else an e-mail-like username', () => {
    expect(mailboxOf({ username: 'ana', email: 'ana@example.org' })).toBe(
      'ana@example.org',
    );
    expect(mailboxOf({ username: 'bia@example.org' })).toBe('bia@example.org');
    expect(mailboxOf({ username: 'bia@example.org', email: '' })).toBe(
      'bia@example.org',
    );
    expect(mailboxOf({ username: 'caio' })).toBeUndefined();
  });

  it('is none when the stored email is not one mailbox, rather than the username', () => {
    expect(
      mailboxOf({ username: 'bia@example.org', email: 'a@x.org, b@x.org' }),
    ).toBeUndefined();
  });
});

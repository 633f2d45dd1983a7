import { NEVER, signature, verifySignature } from './url-signer';

describe('signed file URLs', () => {
  const sig = signature('k', 'download', 'kid_a', 'f1', 1, 2000);

  it('verify until they expire, and forever when they never expire', () => {
    expect(
      verifySignature('k', 'download', 'kid_a', 'f1', 1, 2000, sig, 1999),
    ).toBe(true);
    expect(
      verifySignature('k', 'download', 'kid_a', 'f1', 1, 2000, sig, 2000),
    ).toBe(false);
    const forever = signature('k', 'download', 'kid_a', 'f1', 1, NEVER);
    expect(
      verifySignature('k', 'download', 'kid_a', 'f1', 1, NEVER, forever, 9e9),
    ).toBe(true);
  });

  it('fail when anything they grant was changed', () => {
    expect(verifySignature('k', 'upload', 'kid_a', 'f1', 1, 2000, sig, 1)).toBe(
      false,
    );
    expect(
      verifySignature('k', 'download', 'kid_b', 'f1', 1, 2000, sig, 1),
    ).toBe(false);
    expect(
      verifySignature('k', 'download', 'kid_a', 'f2', 1, 2000, sig, 1),
    ).toBe(false);
    expect(
      verifySignature('k', 'download', 'kid_a', 'f1', 2, 2000, sig, 1),
    ).toBe(false);
    expect(
      verifySignature('k', 'download', 'kid_a', 'f1', 1, 3000, sig, 1),
    ).toBe(false);
    expect(
      verifySignature('other', 'download', 'kid_a', 'f1', 1, 2000, sig, 1),
    ).toBe(false);
  });
});

import { isUuid, newId } from './ids';

describe('ids', () => {
  it('generates version 7 UUIDs in creation order', () => {
    const ids = Array.from({ length: 50 }, () => newId());
    expect(ids.every((id) => isUuid(id) && id[14] === '7')).toBe(true);
    expect([...ids].sort()).toEqual(ids);
  });

  it('rejects strings that are not UUIDs', () => {
    expect(isUuid('not-a-uuid')).toBe(false);
    expect(isUuid('0190b6e2-7d3a-7c4e-9b1a-3f4f5e6d7c8')).toBe(false);
  });
});

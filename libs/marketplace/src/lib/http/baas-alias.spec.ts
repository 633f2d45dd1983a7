import type { Request, Response } from 'express';

import { baasAlias } from './baas-alias';

/** The URL the router sees after the alias, and whether it went on. */
function routed(url: string): string {
  const req = { url } as Request;
  const next = jest.fn();
  baasAlias(req, {} as Response, next);
  expect(next).toHaveBeenCalledTimes(1);
  return req.url;
}

describe('baasAlias', () => {
  it("serves the data API's paths under /baas/, query kept", () => {
    expect(routed('/baas/roles/kid_a')).toBe('/roles/kid_a');
    expect(routed('/baas/appdata/kid_a/orders?query=%7B%7D')).toBe(
      '/appdata/kid_a/orders?query=%7B%7D',
    );
    expect(routed('/baas/user/kid_a/login')).toBe('/user/kid_a/login');
    expect(routed('/baas/group/kid_a')).toBe('/group/kid_a');
  });

  it('leaves every other path alone, the management API and web pages included', () => {
    for (const url of [
      '/baas/manage/v4/apps',
      '/baas/',
      '/baas',
      '/baasappdata/kid_a',
      '/appdata/kid_a',
      '/manage/session',
      '/x/baas/appdata/kid_a',
    ])
      expect(routed(url)).toBe(url);
  });
});

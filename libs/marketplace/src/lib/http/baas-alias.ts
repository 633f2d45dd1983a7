import type { NextFunction, Request, Response } from 'express';

/** The data API's paths that kinvey-cli reaches at the `baas` twin. */
const BAAS_PATH = /^\/baas(\/(?:appdata|user|blob|rpc|roles|group)\/.*)$/;

/**
 * kinvey-cli reads an environment's roles at its management URL with
 * `manage` replaced by `baas`; with the management API at `/manage/` that
 * is `/baas/`, so `/baas/<data path>` is the data API under another name.
 * Mounted before routing, so the rest of the gateway sees the plain path.
 */
export function baasAlias(
  req: Request,
  _res: Response,
  next: NextFunction,
): void {
  const match = BAAS_PATH.exec(req.url);
  if (match?.[1]) req.url = match[1];
  next();
}

import type { NextFunction, Request, Response } from 'express';

/**
 * GitLab's exact `Content-Type: application/json`, no charset parameter:
 * python-gitlab before 3.14 (Debian 12 ships 3.12) decodes a body only when
 * the header is exactly that. Set ahead of the handler, the gateway's reply
 * keeps it; empty responses (204) drop it as Express always does.
 */
export function gitlabJsonContentType() {
  return (_req: Request, res: Response, next: NextFunction): void => {
    res.setHeader('Content-Type', GITLAB_JSON_TYPE);
    next();
  };
}

export const GITLAB_JSON_TYPE = 'application/json';

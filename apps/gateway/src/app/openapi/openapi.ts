import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import type { NextFunction, Request, Response } from 'express';

import type { ContextEntry } from '../contexts/context-catalog';

/**
 * The UI's own scripts and styles only (Swagger UI sets inline styles, which
 * cannot run script), calls to this API only ("Try it out"), and never in a
 * frame: the page holds whatever token a visitor pastes into it.
 */
export function docsSecurityHeaders(
  publicBaseUrl?: string,
): Readonly<Record<string, string>> {
  const api = publicBaseUrl ? ` ${new URL(publicBaseUrl).origin}` : '';
  return {
    'Content-Security-Policy':
      "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; " +
      `img-src 'self' data:; font-src 'self'; connect-src 'self'${api}; ` +
      "form-action 'none'; frame-ancestors 'none'; base-uri 'none'",
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'same-origin',
  };
}

/**
 * `/openapi.json` and the `/docs` UI, generated from the controllers of every
 * served context, with the security schemes their operations name. Built on
 * first request, not at boot.
 */
export function setupOpenApi(
  app: INestApplication,
  contexts: readonly ContextEntry[],
  publicBaseUrl?: string,
): void {
  const builder = new DocumentBuilder()
    .setTitle('Quitanda')
    .setDescription(
      'One self-hostable backend: a Kinvey-compatible marketplace (/appdata, /user, /blob, /rpc), ' +
        'an events API (/events) and GitLab-style error tracking (/api/v4).',
    )
    .setVersion('1')
    .addServer(publicBaseUrl ?? '/');
  for (const context of contexts)
    for (const [name, scheme] of Object.entries(context.securitySchemes))
      builder.addSecurity(name, scheme);
  const config = builder.build();
  const headers = Object.entries(docsSecurityHeaders(publicBaseUrl));
  app.use('/docs', (_req: Request, res: Response, next: NextFunction) => {
    for (const [name, value] of headers) res.setHeader(name, value);
    next();
  });
  SwaggerModule.setup(
    'docs',
    app,
    () => SwaggerModule.createDocument(app, config),
    {
      jsonDocumentUrl: 'openapi.json',
      yamlDocumentUrl: 'openapi.yaml',
    },
  );
}

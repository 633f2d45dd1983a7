import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';

import type { ContextEntry } from '../contexts/context-catalog';

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

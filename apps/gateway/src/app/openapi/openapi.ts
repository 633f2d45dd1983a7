import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';

/**
 * `/openapi.json` and the `/docs` UI, generated from the controllers of every
 * served context. Built on first request, not at boot.
 */
export function setupOpenApi(app: INestApplication): void {
  const config = new DocumentBuilder()
    .setTitle('Quitanda')
    .setDescription(
      'One self-hostable backend: a Kinvey-compatible marketplace (/appdata, /user, /blob, /rpc), ' +
        'an events API (/events) and GitLab-style error tracking (/api/v4).',
    )
    .setVersion('1')
    .addBearerAuth()
    .build();
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

import { Controller, UseGuards, applyDecorators } from '@nestjs/common';
import { ApiParam, ApiTags } from '@nestjs/swagger';

import { TokenAuthGuard } from '../accounts/token-auth.guard';
import { GitLabRestApi } from '../http/openapi';

/**
 * A controller of GitLab's REST API at `path`: token auth, GitLab's
 * OpenAPI security and error responses, listed under `tag`.
 */
export function GitLabController(path: string, tag: string): ClassDecorator {
  // Applied in the order the stacked decorators were (bottom first).
  return applyDecorators(
    Controller(path),
    UseGuards(TokenAuthGuard),
    GitLabRestApi(),
    ApiTags(tag),
  );
}

/** The `:id` of GitLab's project routes. */
export function ApiProjectId(): MethodDecorator & ClassDecorator {
  return ApiParam({
    name: 'id',
    description: 'Numeric project id or URL-encoded path.',
  });
}

/** A GitLab controller under `/api/v4/projects/:id/...`. */
export function GitLabProjectController(
  path: string,
  tag: string,
): ClassDecorator {
  return applyDecorators(
    Controller(path),
    UseGuards(TokenAuthGuard),
    ApiProjectId(),
    GitLabRestApi(),
    ApiTags(tag),
  );
}

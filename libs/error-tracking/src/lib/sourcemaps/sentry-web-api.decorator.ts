import { Controller, UseGuards, applyDecorators } from '@nestjs/common';
import { ApiParam, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { ApiErrorResponses, DATABASE_UNAVAILABLE } from '@quitanda/http';

import { TokenAuthGuard } from '../accounts/token-auth.guard';
import { SENTRY_API_PREFIX } from '../common/error-tracking.constants';
import { SentryErrorDto } from '../http/openapi';

/** `:org` of a Sentry path, documented once. */
export function OrgParam(): ClassDecorator & MethodDecorator {
  return ApiParam({
    name: 'org',
    description: 'Any organisation slug: there are no organisations here.',
  });
}

/**
 * The controller of Sentry's web API (`/api/0/`) that sentry-cli calls:
 * personal access tokens (`Authorization: Bearer`) as on GitLab's API, but
 * Sentry's `{"detail"}` error bodies. `withOrg` when every route has
 * `:org`; else each route that has it says so with `OrgParam`.
 */
export function SentryWebApi(
  tag = 'error tracking: source maps (sentry-cli)',
  withOrg = true,
): ClassDecorator {
  // Applied in the order the stacked decorators were (bottom first).
  return applyDecorators(
    Controller(SENTRY_API_PREFIX.slice(1)),
    UseGuards(TokenAuthGuard),
    ...(withOrg ? [OrgParam()] : []),
    ApiErrorResponses(SentryErrorDto, {
      400: {
        description:
          'A malformed body or parameter, a chunk whose checksum differs, or an unsupported search or status.',
      },
      401: { description: 'No token, or not a live one (`Invalid token`).' },
      403: { description: 'A `read_api` token on a write.' },
      404: {
        description:
          'A project the token cannot maintain, existing or not, or no such route.',
      },
      413: { description: 'A chunk, a body or a bundle over its limit.' },
      503: DATABASE_UNAVAILABLE,
    }),
    ApiSecurity('private-token'),
    ApiSecurity('gitlab-bearer'),
    ApiTags(tag),
  );
}

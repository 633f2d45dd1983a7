import { applyDecorators } from '@nestjs/common';
import {
  ApiOkResponse,
  ApiProperty,
  ApiPropertyOptional,
  ApiQuery,
  ApiSecurity,
} from '@nestjs/swagger';
import type { HeadersObject, SecuritySchemeObject } from '@nestjs/swagger';
import { ApiErrorResponses, DATABASE_UNAVAILABLE } from '@quitanda/http';

import {
  DEFAULT_PER_PAGE,
  MAX_PER_PAGE,
} from '../common/error-tracking.constants';

/** The names this context's operations require; declared by the gateway. */
export const ERROR_TRACKING_SECURITY_SCHEMES: Readonly<
  Record<string, SecuritySchemeObject>
> = {
  'private-token': {
    type: 'apiKey',
    in: 'header',
    name: 'PRIVATE-TOKEN',
    description: 'A personal access token (`glpat-...`).',
  },
  private_token: {
    type: 'apiKey',
    in: 'query',
    name: 'private_token',
    description: 'A personal access token in the query, as GitLab accepts it.',
  },
  'gitlab-bearer': {
    type: 'http',
    scheme: 'bearer',
    description: 'A personal access token as `Authorization: Bearer <token>`.',
  },
  'sentry-auth': {
    type: 'apiKey',
    in: 'header',
    name: 'X-Sentry-Auth',
    description:
      '`Sentry sentry_key=<public key>, ...` (or the same in `Authorization: Sentry ...`, or the envelope header `dsn`).',
  },
  sentry_key: {
    type: 'apiKey',
    in: 'query',
    name: 'sentry_key',
    description: "A client key's public key (browser SDKs).",
  },
};

/** GitLab's REST error bodies, all in one documented shape. */
export class GitLabErrorDto {
  @ApiPropertyOptional({
    description:
      '`"401 Unauthorized"`, `"404 Project Not Found"`, ...; or field errors `{"path": ["has already been taken"]}`.',
    oneOf: [
      { type: 'string' },
      {
        type: 'object',
        additionalProperties: { type: 'array', items: { type: 'string' } },
      },
    ],
  })
  message?: string | Record<string, string[]>;

  @ApiPropertyOptional({
    description:
      'Parameter errors (`"active is missing"`), or `insufficient_scope`.',
    example: 'active is missing',
  })
  error?: string;

  @ApiPropertyOptional({ description: 'With `insufficient_scope`.' })
  error_description?: string;

  @ApiPropertyOptional({ description: 'With `insufficient_scope`: `api`.' })
  scope?: string;
}

/** Sentry's error body on the collector. */
export class SentryErrorDto {
  @ApiProperty({ example: 'Unknown or deleted client key.' })
  detail!: string;
}

/**
 * A controller of GitLab's REST API: its token schemes (header, query,
 * bearer) and GitLab's error responses on every operation.
 */
export function GitLabRestApi(): ClassDecorator {
  return applyDecorators(
    ApiSecurity('private-token'),
    ApiSecurity('private_token'),
    ApiSecurity('gitlab-bearer'),
    ApiErrorResponses(GitLabErrorDto, {
      400: { description: 'A missing or invalid parameter.' },
      401: { description: 'No token, or not a live one.' },
      403: {
        description: 'The role is not enough, or a `read_api` token wrote.',
      },
      404: {
        description: 'No such resource, or the project is not visible.',
      },
      503: DATABASE_UNAVAILABLE,
    }),
  ) as ClassDecorator;
}

const integer = (description: string) => ({
  description,
  schema: { type: 'integer' as const },
});

/** GitLab's offset-pagination headers. */
const PAGE_HEADERS: HeadersObject = {
  'X-Total': integer('Items in all pages.'),
  'X-Total-Pages': integer('Number of pages.'),
  'X-Page': integer('This page (from 1).'),
  'X-Per-Page': integer('Items per page.'),
  'X-Next-Page': {
    description: 'The next page; empty on the last page.',
    schema: { type: 'string' },
  },
  'X-Prev-Page': {
    description: 'The previous page; empty on the first page.',
    schema: { type: 'string' },
  },
  Link: {
    description:
      'Absolute URLs of the `prev`, `next`, `first` and `last` pages (RFC 8288).',
    schema: { type: 'string' },
  },
};

const NEXT_LINK: HeadersObject = {
  Link: {
    description:
      'The absolute URL of the next page as `rel="next"`; absent on the last page.',
    schema: { type: 'string' },
  },
};

const PER_PAGE = ApiQuery({
  name: 'per_page',
  required: false,
  schema: { type: 'integer', default: DEFAULT_PER_PAGE, maximum: MAX_PER_PAGE },
});

/** GitLab's `page` and `per_page` parameters. */
export function ApiPageQueries(): MethodDecorator {
  return applyDecorators(
    ApiQuery({
      name: 'page',
      required: false,
      schema: { type: 'integer', default: 1, minimum: 1 },
    }),
    PER_PAGE,
  );
}

/** A list paginated by `page`/`per_page`, with GitLab's headers. */
export function ApiGitLabPage(
  type: new () => unknown,
  description?: string,
): MethodDecorator {
  return applyDecorators(
    ApiPageQueries(),
    ApiOkResponse({
      type,
      isArray: true,
      headers: PAGE_HEADERS,
      ...(description ? { description } : {}),
    }),
  );
}

/** A list paginated by keyset: only `Link: <...>; rel="next"`. */
export function ApiGitLabKeysetPage(type: new () => unknown): MethodDecorator {
  return applyDecorators(
    PER_PAGE,
    ApiOkResponse({ type, isArray: true, headers: NEXT_LINK }),
  );
}

/** Both: GET /projects pages by offset, or by keyset on `pagination=keyset`. */
export const PAGE_OR_KEYSET_HEADERS: HeadersObject = {
  ...PAGE_HEADERS,
  Link: {
    description:
      'Offset: absolute `prev`, `next`, `first`, `last` URLs. Keyset: only `next`, absent on the last page.',
    schema: { type: 'string' },
  },
};

import { Injectable, createParamDecorator } from '@nestjs/common';
import type { ExecutionContext, PipeTransform } from '@nestjs/common';
import type { Request } from 'express';

import type { Caller } from '../../accounts/account.types';
import type { AccessLevel } from '../../common/error-tracking.constants';
import { webCaller } from './web-caller';
import { webContextOf } from './web-context';
import { ProjectAccessService } from '../../projects/project-access.service';
import type { ProjectAccess } from '../../projects/project.types';

/** Who asks for which project (`:id`, an id or a path), at what level. */
export interface ProjectAccessRequest {
  readonly caller: Pick<Caller, 'user'>;
  readonly idOrPath: string;
  readonly minimum: AccessLevel;
}

/**
 * Turns a route's project into the access the handler works with, before
 * the handler runs (404 non-member, 403 role), so every page handler checks
 * access the same way and first. (The API's handlers keep `@Param('id')`:
 * OpenAPI documents path parameters from it, first and typed.)
 */
@Injectable()
export class ProjectAccessPipe implements PipeTransform<
  ProjectAccessRequest,
  Promise<ProjectAccess>
> {
  constructor(private readonly access: ProjectAccessService) {}

  transform(request: ProjectAccessRequest): Promise<ProjectAccess> {
    return this.access.require(
      request.caller,
      request.idOrPath,
      request.minimum,
    );
  }
}

/**
 * A parameter decorator for an edge that finds its caller on the request
 * (the web UI: the session): `@X(AccessLevel.Reporter) access` is the
 * route's `:id` as that caller may use it.
 */
export function projectAccessParam(
  callerOf: (req: Request) => Pick<Caller, 'user'>,
): (minimum: AccessLevel) => ParameterDecorator {
  const request = createParamDecorator(
    (minimum: AccessLevel, context: ExecutionContext): ProjectAccessRequest => {
      const req = context.switchToHttp().getRequest<Request>();
      return {
        caller: callerOf(req),
        idOrPath: req.params['id'] as string,
        minimum,
      };
    },
  );
  return (minimum) => request(minimum, ProjectAccessPipe);
}

/** The page's project (`:id`) as the signed-in user may use it. */
export const WebProjectAt = projectAccessParam((req) =>
  webCaller(webContextOf(req)),
);

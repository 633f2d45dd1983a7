import { Controller, UseGuards, applyDecorators } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';

import { KinveyAuthGuard } from './kinvey-auth.guard';

/**
 * A controller of Kinvey calls at `path` (`<namespace>/:appKey`): each call
 * authenticated against the app of its path, listed under `tag`.
 */
export function KinveyController(path: string, tag: string): ClassDecorator {
  // Applied in the order the stacked decorators were (bottom first).
  return applyDecorators(
    Controller(path),
    UseGuards(KinveyAuthGuard),
    ApiTags(tag),
  );
}

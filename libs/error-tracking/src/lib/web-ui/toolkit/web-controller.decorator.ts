import { Controller, applyDecorators } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';

/**
 * A controller of the web UI (at `path`, else at the root): HTML pages and
 * assets, which the OpenAPI document leaves out.
 */
export function WebController(path?: string): ClassDecorator {
  return applyDecorators(
    path === undefined ? Controller() : Controller(path),
    ApiExcludeController(),
  );
}

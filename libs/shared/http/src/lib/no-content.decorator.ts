import { HttpCode, HttpStatus, applyDecorators } from '@nestjs/common';
import { ApiNoContentResponse } from '@nestjs/swagger';

/** A route that answers 204: the status and its OpenAPI response at once. */
export function NoContent(): MethodDecorator {
  return applyDecorators(
    HttpCode(HttpStatus.NO_CONTENT),
    ApiNoContentResponse(),
  );
}

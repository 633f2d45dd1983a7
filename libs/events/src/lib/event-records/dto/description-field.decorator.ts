import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';

import { DESCRIPTION_MAX_LENGTH } from '../../common/events.constants';

/**
 * `description`, as every write takes it: optional text of at most
 * DESCRIPTION_MAX_LENGTH characters. `doc` adds to its OpenAPI property.
 */
export function DescriptionField(
  doc: { default?: string } = {},
): PropertyDecorator {
  // Applied in the order the stacked decorators were (bottom first), so the
  // checks and their messages keep their order.
  return applyDecorators(
    MaxLength(DESCRIPTION_MAX_LENGTH),
    IsString(),
    IsOptional(),
    ApiPropertyOptional({ maxLength: DESCRIPTION_MAX_LENGTH, ...doc }),
  );
}

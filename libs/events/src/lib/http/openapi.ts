import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { SecuritySchemeObject } from '@nestjs/swagger';
import { ApiErrorResponses } from '@quitanda/http';
import type { ErrorResponseDoc } from '@quitanda/http';

/** The security scheme the write operations name; declared by the gateway. */
export const EVENTS_SECURITY_SCHEMES: Readonly<
  Record<string, SecuritySchemeObject>
> = {
  bearer: {
    type: 'http',
    scheme: 'bearer',
    description:
      '`EVENTS_WRITE_TOKEN`, needed by writes when the operator sets one.',
  },
};

class FieldErrorDto {
  @ApiProperty({ example: 'title' }) field!: string;
  @ApiProperty({ example: 'must not be empty' }) message!: string;
}

/** RFC 9457 problem details, the events context's error body. */
export class ProblemDto {
  @ApiProperty({ example: 'urn:quitanda:problem:event-not-found' })
  type!: string;

  @ApiProperty({ example: 'Event not found' }) title!: string;
  @ApiProperty({ example: 404 }) status!: number;
  @ApiProperty() detail!: string;
  @ApiProperty({ description: 'Also in the `X-Request-Id` header.' })
  request_id!: string;

  @ApiPropertyOptional({ type: FieldErrorDto, isArray: true })
  errors?: FieldErrorDto[];
}

/** Error responses as `application/problem+json`. */
export function ApiProblems(
  responses: Readonly<Record<number, ErrorResponseDoc>>,
): MethodDecorator & ClassDecorator {
  return ApiErrorResponses(ProblemDto, responses, 'application/problem+json');
}

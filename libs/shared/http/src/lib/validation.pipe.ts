import { ValidationPipe } from '@nestjs/common';
import type {
  ArgumentMetadata,
  PipeTransform,
  ValidationError,
} from '@nestjs/common';
import { TransportError, TransportErrorKind } from '@quitanda/kernel';
import type { FieldError } from '@quitanda/kernel';

function messagesOf(error: ValidationError): string[] {
  const constraints = error.constraints ?? {};
  if ('whitelistValidation' in constraints) return ['is not a known field'];
  // class-validator prefixes messages with the property name.
  return Object.values(constraints).map((message) =>
    message.startsWith(`${error.property} `)
      ? message.slice(error.property.length + 1)
      : message,
  );
}

/** Flattens class-validator's tree into one entry per failing field. */
function fieldErrorsOf(
  errors: readonly ValidationError[],
  parent = '',
): FieldError[] {
  const result: FieldError[] = [];
  for (const error of errors) {
    const field = parent ? `${parent}.${error.property}` : error.property;
    const messages = messagesOf(error);
    if (messages.length > 0)
      result.push({ field, message: messages.join('; ') });
    if (error.children?.length) {
      result.push(...fieldErrorsOf(error.children, field));
    }
  }
  return result;
}

function invalid(errors: ValidationError[]): TransportError {
  return new TransportError(
    TransportErrorKind.InvalidRequest,
    'The request has invalid fields.',
    fieldErrorsOf(errors),
  );
}

function classValidatorPipe(forbidUnknownFields: boolean): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: forbidUnknownFields,
    forbidUnknownValues: true,
    transform: true,
    stopAtFirstError: false,
    validationError: { target: false, value: false },
    exceptionFactory: invalid,
  });
}

/**
 * The request-DTO validation every context uses: class-validator rules,
 * every failing field reported (one entry per field), rendered by the owning
 * context's error format. Bodies must be JSON objects and may not carry
 * fields the DTO does not declare; query strings may (cache busters such as
 * `_=` are common), their unknown parameters are dropped.
 */
export class RequestValidationPipe implements PipeTransform {
  private readonly strict = classValidatorPipe(true);
  private readonly lenient = classValidatorPipe(false);

  async transform(
    value: unknown,
    metadata: ArgumentMetadata,
  ): Promise<unknown> {
    if (metadata.type !== 'body')
      return this.lenient.transform(value, metadata);
    const isDto =
      typeof metadata.metatype === 'function' &&
      ![String, Boolean, Number, Array, Object].includes(
        metadata.metatype as never,
      );
    if (
      isDto &&
      (value === null || typeof value !== 'object' || Array.isArray(value))
    ) {
      throw new TransportError(
        TransportErrorKind.InvalidRequest,
        'The request body must be a JSON object.',
        [{ field: '(body)', message: 'must be a JSON object' }],
      );
    }
    return this.strict.transform(value, metadata);
  }
}

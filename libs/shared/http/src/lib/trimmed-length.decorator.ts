import { ValidateBy, buildMessage } from 'class-validator';
import type { ValidationOptions } from 'class-validator';

/**
 * A string whose length after trimming is within [min, max] characters
 * (code points), while the value itself is stored as sent.
 */
export function TrimmedLength(
  min: number,
  max: number,
  options?: ValidationOptions,
): PropertyDecorator {
  return ValidateBy(
    {
      name: 'trimmedLength',
      constraints: [min, max],
      validator: {
        validate: (value: unknown) => {
          if (typeof value !== 'string') return false;
          const length = [...value.trim()].length;
          return length >= min && length <= max;
        },
        defaultMessage: buildMessage(
          (each) =>
            `${each}$property must be a string of ${min} to ${max} characters, not counting surrounding spaces`,
          options,
        ),
      },
    },
    options,
  );
}

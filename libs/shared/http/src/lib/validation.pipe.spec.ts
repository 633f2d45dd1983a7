import { TransportError, TransportErrorKind } from '@quitanda/kernel';
import { IsInt, IsOptional, IsString, MaxLength } from 'class-validator';

import { TrimmedLength } from './trimmed-length.decorator';
import { RequestValidationPipe } from './validation.pipe';

class SampleDto {
  @TrimmedLength(1, 5)
  title!: string;

  @IsOptional()
  @IsString()
  @MaxLength(3)
  note?: string;

  @IsOptional()
  @IsInt()
  count?: number;
}

async function failure(value: unknown) {
  const pipe = new RequestValidationPipe();
  try {
    await pipe.transform(value, { type: 'body', metatype: SampleDto });
  } catch (error) {
    return error as TransportError;
  }
  throw new Error('expected validation to fail');
}

describe('validationPipe', () => {
  it('lists every failing field, unknown fields included', async () => {
    const error = await failure({
      title: '   ',
      note: 'long',
      extra: 1,
      count: 'x',
    });
    expect(error).toBeInstanceOf(TransportError);
    expect(error.kind).toBe(TransportErrorKind.InvalidRequest);
    expect(error.fieldErrors).toEqual(
      expect.arrayContaining([
        {
          field: 'title',
          message:
            'must be a string of 1 to 5 characters, not counting surrounding spaces',
        },
        {
          field: 'note',
          message: 'must be shorter than or equal to 3 characters',
        },
        { field: 'count', message: 'must be an integer number' },
        { field: 'extra', message: 'is not a known field' },
      ]),
    );
    expect(error.fieldErrors).toHaveLength(4);
  });

  it('refuses a body that is not an object', async () => {
    const error = await failure(['a']);
    expect(error.fieldErrors).toEqual([
      { field: '(body)', message: 'must be a JSON object' },
    ]);
  });

  it('gives one entry per field, however many rules it breaks', async () => {
    const error = await failure({ title: 'ok', count: 1.5, note: 42 });
    expect(error.fieldErrors).toEqual([
      {
        field: 'note',
        message:
          'must be shorter than or equal to 3 characters; must be a string',
      },
      { field: 'count', message: 'must be an integer number' },
    ]);
  });

  it('keeps valid values as sent and drops unknown query parameters', async () => {
    const pipe = new RequestValidationPipe();
    await expect(
      pipe.transform(
        { title: ' ab ', other: true },
        { type: 'query', metatype: SampleDto },
      ),
    ).resolves.toEqual(Object.assign(new SampleDto(), { title: ' ab ' }));
  });
});

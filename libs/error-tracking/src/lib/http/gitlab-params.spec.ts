import { GitLabBody } from './gitlab-params';
import { Params } from './params';

/** Where `@ApiProperty` keeps a property's options (Swagger's own key). */
const API_MODEL_PROPERTIES = 'swagger/apiModelProperties';

const BODY = new GitLabBody('SampleBodyDto', {
  title: { type: 'string', required: true, max: 5 },
  level: { type: 'integer', required: true, oneOf: [10, 20] },
  state: { type: 'string', oneOf: ['open', 'closed'] },
  labels: { type: 'list', doc: { description: 'Comma-separated.' } },
  active: { type: 'boolean' },
});

describe('GitLabBody (a body described once)', () => {
  it('reads the fields with Params, in declaration order', () => {
    const params = Params.of(
      { level: '20' },
      { title: 'crash', labels: 'a, b', active: 'yes' },
    );
    expect(BODY.read(params)).toEqual({
      title: 'crash',
      level: 20,
      state: undefined,
      labels: ['a', 'b'],
      active: true,
    });
    params.check();
  });

  it("reports Grape's messages in declaration order", () => {
    const params = Params.of(
      {},
      { level: 15, state: 'gone', title: 'toolong' },
    );
    BODY.read(params);
    expect(() => params.check()).toThrow(
      'title is too long (maximum is 5 characters), level does not have a valid value, state does not have a valid value',
    );
  });

  it('requires nothing when partial (an update)', () => {
    const params = Params.of({}, {});
    BODY.read(params, { partial: true });
    expect(() => params.check()).not.toThrow();
  });

  it('is the OpenAPI model of the same name', () => {
    expect(BODY.dto.name).toBe('SampleBodyDto');
    const property = (key: string): unknown =>
      Reflect.getMetadata(
        API_MODEL_PROPERTIES,
        BODY.dto.prototype as object,
        key,
      );
    expect(property('title')).toMatchObject({ type: String, required: true });
    expect(property('level')).toMatchObject({ enum: [10, 20], required: true });
    expect(property('labels')).toMatchObject({
      type: String,
      required: false,
      description: 'Comma-separated.',
    });
  });
});

import { ErrorTrackingErrorCode } from '../common/error-tracking.errors';
import { Params } from './params';

describe('Params (Grape-style parameters)', () => {
  it('merges query and body, the body winning', () => {
    const params = Params.of(
      { active: 'false', integrated: 'true' },
      { active: true },
    );
    expect(params.boolean('active', true)).toBe(true);
    expect(params.boolean('integrated')).toBe(true);
    params.check();
  });

  it('reports every problem in one message, in GitLab words', () => {
    const params = Params.of({}, { active: 'maybe', name: '  ' });
    params.boolean('active', true);
    params.boolean('integrated', true);
    params.string('name', true);
    params.oneOf('level', params.integer('level'), [10, 20]);
    expect(() => params.check()).toThrow(
      expect.objectContaining({
        code: ErrorTrackingErrorCode.InvalidParameter,
        message: 'active is invalid, integrated is missing, name is empty',
      }),
    );
    const levels = Params.of({ level: '15' }, undefined);
    levels.oneOf('level', levels.integer('level'), [10, 20]);
    expect(() => levels.check()).toThrow('level does not have a valid value');
  });

  it('reads booleans, integers and lists as GitLab clients send them', () => {
    const params = new Params({
      a: '1',
      b: 'FALSE',
      n: '42',
      list: 'api, read_api',
      arr: ['x', 'y'],
    });
    expect([
      params.boolean('a'),
      params.boolean('b'),
      params.integer('n'),
    ]).toEqual([true, false, 42]);
    expect(params.list('list')).toEqual(['api', 'read_api']);
    expect(params.list('arr')).toEqual(['x', 'y']);
    expect(params.string('absent')).toBeUndefined();
    params.check();
  });
});

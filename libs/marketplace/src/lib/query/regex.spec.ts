import { MarketplaceErrorCode } from '../common/marketplace.errors';
import { toPostgresRegex } from './regex';
import { errorCode } from '../../testing/query/error-code';

function code(pattern: string, options?: string) {
  return errorCode(() => toPostgresRegex(pattern, options));
}

describe('toPostgresRegex', () => {
  it.each([
    ['^ab+c$', undefined, '(?p)^ab+c$'],
    ['^a', 'i', '(?ip)^a'],
    ['a.b', 's', '(?s)a.b'],
    ['^a$', 'm', '(?n)^a$'],
    ['^a.$', 'ms', '(?w)^a.$'],
    ['a b # comment\nc', 'x', '(?p)abc'],
    ['[a b]', 'x', '(?p)[a b]'],
    ['\\bkiwi\\B', undefined, '(?p)\\ykiwi\\Y'],
    ['\\x41\\u00e9', undefined, '(?p)\\u0041\\u00e9'],
    ['[\\d-z]', undefined, '(?p)[\\dz-]'],
    ['[a-c-e]', undefined, '(?p)[a-ce-]'],
    ['[[:a]', undefined, '(?p)[\\[:a]'],
    ['a{2,3}?', undefined, '(?p)a{2,3}?'],
    ['a{x}', undefined, '(?p)a\\{x\\}'],
    ['(?:a)(?=b)(?<!c)', undefined, '(?p)(?:a)(?=b)(?<!c)'],
    ['\\q\\.', undefined, '(?p)q\\.'],
  ])('translates %j with options %j', (pattern, options, expected) => {
    expect(toPostgresRegex(pattern, options)).toBe(expected);
  });

  it.each([
    ['(', undefined],
    ['a**', undefined],
    ['[b-a]', undefined],
    ['x', 'g'],
    ['x', 'u'],
  ])(
    'refuses %j (options %j) as InvalidQuerySyntax',
    (pattern: string, options: string | undefined) => {
      expect(code(pattern, options)).toBe(
        MarketplaceErrorCode.InvalidQuerySyntax,
      );
    },
  );

  it.each([
    ['(?<n>a)'],
    ['(a)\\1'],
    ['\\p{L}'],
    ['a{300}'],
    ['(?=a)*'],
    ['(a{255}){255}'],
    ['((a{30}){30}){30}'],
    ['[^]'],
    ['[\\D]'],
  ])(
    'refuses %j, which PostgreSQL reads differently, as FeatureUnavailable',
    (pattern) => {
      expect(code(pattern)).toBe(MarketplaceErrorCode.FeatureUnavailable);
    },
  );
});

import { requireOptions } from './cli-options';

describe('requireOptions', () => {
  it('passes when every named option has a value', () => {
    expect(() =>
      requireOptions({ app: 'kid_x', username: 'ana' }, 'app', 'username'),
    ).not.toThrow();
  });

  it('names the one missing flag', () => {
    expect(() => requireOptions({ name: '' }, 'name')).toThrow(
      new Error('--name is required'),
    );
  });

  it('names every required flag, kebab-cased, when any is missing', () => {
    const options: { username?: string; expiresAt?: string } = {
      username: 'ana',
    };
    expect(() => requireOptions(options, 'username', 'expiresAt')).toThrow(
      new Error('--username and --expires-at are required'),
    );
  });
});

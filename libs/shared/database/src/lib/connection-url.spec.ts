import { connectionFieldsFromUrl } from './connection-url';

describe('connectionFieldsFromUrl', () => {
  it('splits a server URL, decoding credentials', () => {
    expect(
      connectionFieldsFromUrl(
        'postgres://app%40x:p%40ss@db.internal:6543/quitanda',
      ),
    ).toEqual({
      host: 'db.internal',
      port: 6543,
      username: 'app@x',
      password: 'p@ss',
      database: 'quitanda',
    });
  });

  it('keeps a Unix socket directory given as ?host=', () => {
    expect(
      connectionFieldsFromUrl(
        'postgres://postgres@localhost:5432/postgres?host=%2Fdata%2Frun',
      ),
    ).toMatchObject({ host: '/data/run', port: 5432, database: 'postgres' });
  });

  it('passes TLS requirements through', () => {
    expect(
      connectionFieldsFromUrl('postgres://u@h/d?sslmode=require').ssl,
    ).toBeTruthy();
    expect(connectionFieldsFromUrl('postgres://u@h/d').ssl).toBeUndefined();
  });
});

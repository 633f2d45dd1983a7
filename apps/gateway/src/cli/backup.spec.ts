import { portable } from './backup';

describe('portable (a newer pg_dump made restorable into PostgreSQL 15)', () => {
  it('drops what PostgreSQL 15 refuses from the preamble and the end, and nothing from the data', () => {
    const dump = [
      '\\restrict abc123',
      'SET statement_timeout = 0;',
      'SET transaction_timeout = 0;',
      'CREATE SCHEMA events;',
      "INSERT INTO events.events VALUES (1, 'SET transaction_timeout = 0;",
      "\\restrict not-a-guard');",
      "INSERT INTO events.events VALUES (2, 'x');",
      "INSERT INTO events.events VALUES (3, 'y');",
      "INSERT INTO events.events VALUES (4, 'z');",
      "INSERT INTO events.events VALUES (5, 'w');",
      '',
      '\\unrestrict abc123',
      '',
    ].join('\n');
    expect(portable(dump).split('\n')).toEqual([
      'SET statement_timeout = 0;',
      'CREATE SCHEMA events;',
      "INSERT INTO events.events VALUES (1, 'SET transaction_timeout = 0;",
      "\\restrict not-a-guard');",
      "INSERT INTO events.events VALUES (2, 'x');",
      "INSERT INTO events.events VALUES (3, 'y');",
      "INSERT INTO events.events VALUES (4, 'z');",
      "INSERT INTO events.events VALUES (5, 'w');",
      '',
      '',
    ]);
  });
});

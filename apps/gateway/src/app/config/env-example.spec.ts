import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '../../../../..');

/** The variables of README.md's configuration table (first column). */
function documented(): string[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  return [...readme.matchAll(/^\| (`[A-Z][A-Z0-9_]+`(?:, `[A-Z0-9_]+`)*)/gm)]
    .flatMap((row) => (row[1] ?? '').split(', '))
    .map((name) => name.replace(/`/g, ''));
}

describe('.env.example', () => {
  it('names every variable of the README configuration table', () => {
    const example = readFileSync(join(ROOT, '.env.example'), 'utf8');
    const variables = documented();
    expect(variables.length).toBeGreaterThan(40);
    expect(
      variables.filter(
        (name) => !new RegExp(`^#? ?${name}=`, 'm').test(example),
      ),
    ).toEqual([]);
  });
});

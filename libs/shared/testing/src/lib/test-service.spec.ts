import { Inject, Injectable } from '@nestjs/common';

import { autoMock, newTestService } from './test-service';

class Base {
  inherited(): string {
    return 'real';
  }
}

class Repository extends Base {
  find(id: string): string {
    return `real ${id}`;
  }
}

const OPTIONS = Symbol('options');

@Injectable()
class Service {
  constructor(
    private readonly repository: Repository,
    @Inject(OPTIONS) private readonly options: { prefix: string },
  ) {}

  describe(id: string): string {
    return `${this.options.prefix}${this.repository.find(id)}`;
  }
}

describe('newTestService', () => {
  it('injects an auto-mock for each class the service depends on', async () => {
    const { sut, mock } = await newTestService(Service, [
      { provide: OPTIONS, useValue: { prefix: '> ' } },
    ]);
    mock(Repository).find.mockReturnValue('stubbed');
    expect(sut.describe('a')).toBe('> stubbed');
    expect(mock(Repository).find).toHaveBeenCalledWith('a');
  });

  it('uses a given provider instead of the auto-mock', async () => {
    const repository = { find: (id: string) => `given ${id}` };
    const { sut } = await newTestService(Service, [
      { provide: OPTIONS, useValue: { prefix: '' } },
      { provide: Repository, useValue: repository },
    ]);
    expect(sut.describe('b')).toBe('given b');
  });

  it('names a token that is not a class and was not provided', async () => {
    await expect(newTestService(Service)).rejects.toThrow(
      /provide a value for Symbol\(options\)/,
    );
  });
});

describe('autoMock', () => {
  it('stubs own and inherited methods with nothing behind them', () => {
    const mock = autoMock(Repository);
    expect(mock.find('x')).toBeUndefined();
    expect(mock.inherited()).toBeUndefined();
    expect(mock).toBeInstanceOf(Repository);
  });
});

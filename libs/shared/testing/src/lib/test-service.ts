import type { InjectionToken, Provider, Type } from '@nestjs/common';
import { Test } from '@nestjs/testing';

/** A class whose every method is a `jest.fn()` with nothing behind it. */
export type AutoMocked<T> = jest.Mocked<T>;

/** The methods of a class and of the classes it extends, by name. */
function methodNames(type: Type<unknown>): string[] {
  const names = new Set<string>();
  for (
    let proto = type.prototype as object | null;
    proto && proto !== Object.prototype;
    proto = Object.getPrototypeOf(proto) as object | null
  ) {
    for (const name of Object.getOwnPropertyNames(proto)) {
      const descriptor = Object.getOwnPropertyDescriptor(proto, name);
      if (name !== 'constructor' && typeof descriptor?.value === 'function')
        names.add(name);
    }
  }
  return [...names];
}

/**
 * An instance of `type` built without its constructor, each method a bare
 * `jest.fn()`: a repository or collaborator a test stubs call by call.
 */
export function autoMock<T>(type: Type<T>): AutoMocked<T> {
  const mock = Object.create(type.prototype as object) as Record<
    string,
    unknown
  >;
  for (const name of methodNames(type)) mock[name] = jest.fn();
  return mock as unknown as AutoMocked<T>;
}

/** The service under test and the mocks it was given. */
export interface TestService<T> {
  readonly sut: T;
  /** The auto-mock (or given value) that stands for `token`. */
  mock<M>(token: Type<M>): AutoMocked<M>;
}

/**
 * Builds `Service` through Nest's injector, as the application does, with
 * every class it depends on replaced by an {@link autoMock}, so a spec
 * states only the collaborators' answers it needs (immich's
 * `newTestService` does the same for its services). Tokens that are not
 * classes (options, the clock) carry values no mock can invent: pass them
 * in `providers`, which also overrides any class's auto-mock.
 */
export async function newTestService<T>(
  Service: Type<T>,
  providers: Provider[] = [],
): Promise<TestService<T>> {
  const mocks = new Map<InjectionToken, unknown>();
  const module = await Test.createTestingModule({
    providers: [Service, ...providers],
  })
    .useMocker((token) => {
      if (typeof token !== 'function')
        throw new Error(
          `newTestService(${Service.name}): provide a value for ${String(token)}`,
        );
      const mock = autoMock(token as Type<unknown>);
      mocks.set(token, mock);
      return mock;
    })
    .compile();
  return {
    sut: module.get(Service),
    mock<M>(token: Type<M>): AutoMocked<M> {
      const found = mocks.get(token) ?? module.get(token, { strict: false });
      return found as AutoMocked<M>;
    },
  };
}

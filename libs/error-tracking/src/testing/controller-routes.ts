import { MODULE_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import type { Type } from '@nestjs/common';

function pathsOf(target: object): string[] {
  const value: unknown = Reflect.getMetadata(PATH_METADATA, target);
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : [value]) as string[];
}

/**
 * Every path a module's controllers serve, as `/a/b/:c`: what a test checks
 * a path-scoped middleware against.
 */
export function controllerRoutes(
  module: Type,
  controllers: readonly Type[] = Reflect.getMetadata(
    MODULE_METADATA.CONTROLLERS,
    module,
  ) as Type[],
): string[] {
  const routes: string[] = [];
  for (const controller of controllers) {
    const prefixes = pathsOf(controller);
    const proto = controller.prototype as Record<string, unknown>;
    for (const name of Object.getOwnPropertyNames(proto)) {
      const handler = proto[name];
      if (name === 'constructor' || typeof handler !== 'function') continue;
      for (const prefix of prefixes.length ? prefixes : ['']) {
        for (const path of pathsOf(handler)) {
          const joined = `/${prefix}/${path}`.replace(/\/+/g, '/');
          routes.push(joined.length > 1 ? joined.replace(/\/$/, '') : joined);
        }
      }
    }
  }
  return routes;
}

/**
 * Whether a middleware registered for `paths` (Express 5 patterns: exact,
 * `prefix{/*rest}` or `prefix/{*rest}`) runs for `route`.
 */
export function coveredBy(route: string, paths: readonly string[]): boolean {
  return paths.some((pattern) => {
    const path = `/${pattern}`.replace(/\/+/g, '/');
    const optional = path.match(/^(.*)\{\/\*\w+\}$/);
    if (optional?.[1])
      return route === optional[1] || route.startsWith(`${optional[1]}/`);
    const required = path.match(/^(.*\/)\{\*\w+\}$/);
    if (required?.[1]) return route.startsWith(required[1]);
    return route === path;
  });
}

export { SqlParams } from './sql-params';
export { parseJsonParam } from './parse-json-param';
export { compileFilter } from './compile-filter';
export type { CompiledFilter } from './compile-filter';
export { compileSort } from './compile-sort';
export { compileGroup } from './compile-group';
export type { CompiledGroup, GroupRow } from './compile-group';
export type { TextFields } from './text-fields';

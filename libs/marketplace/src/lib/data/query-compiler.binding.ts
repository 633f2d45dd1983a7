import type { Provider } from '@nestjs/common';

import {
  SqlParams,
  compileFilter,
  compileGroup,
  compileSort,
  parseJsonParam,
} from '../query';
import { QUERY_COMPILER } from './query-compiler.port';
import type { QueryCompiler } from './query-compiler.port';

/** The compiler of `../query` behind the data layer's port. */
export const QUERY_COMPILER_PROVIDER: Provider = {
  provide: QUERY_COMPILER,
  useValue: {
    params: () => new SqlParams(),
    parseJsonParam,
    compileFilter: (filter, doc, params) =>
      compileFilter(filter, doc, params as SqlParams),
    compileSort: (sort, doc, params) =>
      compileSort(sort, doc, params as SqlParams),
    compileGroup: (body, doc, params) =>
      compileGroup(body, doc, params as SqlParams),
  } satisfies QueryCompiler,
};

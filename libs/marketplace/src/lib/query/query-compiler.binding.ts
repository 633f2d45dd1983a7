import type { Provider } from '@nestjs/common';

import {
  SqlParams,
  compileFilter,
  compileGroup,
  compileSort,
  parseJsonParam,
} from './';
import { QUERY_COMPILER } from './query-compiler.port';
import type { QueryCompiler } from './query-compiler.port';

/** The compiler of `../query` behind the data layer's port. */
export const QUERY_COMPILER_PROVIDER: Provider = {
  provide: QUERY_COMPILER,
  useValue: {
    params: () => new SqlParams(),
    parseJsonParam,
    compileFilter: (filter, doc, params, textFields) =>
      compileFilter(filter, doc, params as SqlParams, textFields),
    compileSort: (sort, doc, params, textFields) =>
      compileSort(sort, doc, params as SqlParams, textFields),
    compileGroup: (body, doc, params) =>
      compileGroup(body, doc, params as SqlParams),
  } satisfies QueryCompiler,
};

import type { Operation } from './fuzz-inputs';

interface Schema {
  $ref?: string;
  type?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
  enum?: unknown[];
  example?: unknown;
}

interface OpenApiDocument {
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: Array<{ name: string; in: string }>;
        requestBody?: { content?: Record<string, { schema?: Schema }> };
      }
    >
  >;
  components?: { schemas?: Record<string, Schema> };
}

/** A plausible value for a schema (bounded depth: schemas may refer to themselves). */
function sample(
  doc: OpenApiDocument,
  schema: Schema | undefined,
  depth = 0,
): unknown {
  if (!schema || depth > 6) return 'x';
  if (schema.$ref)
    return sample(
      doc,
      doc.components?.schemas?.[schema.$ref.split('/').pop() ?? ''],
      depth + 1,
    );
  if (schema.example !== undefined) return schema.example;
  if (schema.enum?.length) return schema.enum[0];
  switch (schema.type) {
    case 'integer':
    case 'number':
      return 1;
    case 'boolean':
      return true;
    case 'array':
      return [sample(doc, schema.items, depth + 1)];
    case 'string':
      return 'fuzz';
    default:
      return Object.fromEntries(
        Object.entries(schema.properties ?? {}).map(([name, inner]) => [
          name,
          sample(doc, inner, depth + 1),
        ]),
      );
  }
}

/** Every operation the gateway documents (`/openapi.json`), with a sample body. */
export function operationsOf(doc: OpenApiDocument): Operation[] {
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths))
    for (const [method, op] of Object.entries(methods)) {
      const params = op.parameters ?? [];
      const content = op.requestBody?.content ?? {};
      const schema = Object.values(content)[0]?.schema;
      operations.push({
        method: method.toUpperCase(),
        path,
        pathParams: params.filter((p) => p.in === 'path').map((p) => p.name),
        queryParams: params.filter((p) => p.in === 'query').map((p) => p.name),
        body: op.requestBody ? sample(doc, schema) : undefined,
      });
    }
  return operations;
}

export type { OpenApiDocument };

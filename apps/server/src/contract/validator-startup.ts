import { createRequire } from "node:module";

/** The part of an Ajv instance the preprocessor's lookup reads: its schemas by key (public fields of Ajv 8). */
interface AjvLike {
  schemas: Record<string, { schema: unknown } | string | undefined>;
  refs: Record<string, { schema: unknown } | string | undefined>;
}

interface Preprocessor {
  ajv: AjvLike;
  resolvedSchemaCache: Map<string, unknown>;
  resolveSchema(schema: unknown): unknown;
}

type Patched<T> = T & { cheapStart?: true };

/**
 * express-openapi-validator (5.6.x) spends most of a server's start on work whose result it
 * throws away (issue 36: first answer after start):
 * - it compiles the whole OpenAPI meta-schema with Ajv even when `validateApiSpec` is false,
 *   and then never calls it (framework/index.js); the contract is checked against it in its
 *   own package's tests, not on every start;
 * - its schema preprocessor asks Ajv for every `$ref` with `getSchema`, which compiles the
 *   referenced component (hundreds of them), only to read back the schema object Ajv was given
 *   (`.schema`). The same object is found by key, as `getSchema` finds it, without compiling.
 * Requests are validated as before: their validators are compiled by another Ajv, per route,
 * on the route's first request.
 *
 * @returns whether both are in place (false when the validator no longer works this way)
 */
export function cheapValidatorStart(): boolean {
  const fromValidator = createRequire(createRequire(import.meta.url).resolve("express-openapi-validator"));
  const meta = fromValidator("./framework/openapi.schema.validator") as {
    OpenAPISchemaValidator?: Patched<new (opts: { validateApiSpec?: boolean }) => unknown>;
  };
  const pre = fromValidator("./middlewares/parsers/schema.preprocessor") as { SchemaPreprocessor?: { prototype: Patched<Preprocessor> } };
  const Full = meta.OpenAPISchemaValidator;
  const proto = pre.SchemaPreprocessor?.prototype;
  if (typeof Full !== "function" || typeof proto?.resolveSchema !== "function") return false;

  if (!Full.cheapStart) {
    const unused = { validate: () => ({ errors: [] }) };
    // A function, not an arrow: the validator calls it with `new`, and gets back what it returns.
    // biome-ignore lint/complexity/useArrowFunction: called with `new`
    const OnDemand = function (opts: { validateApiSpec?: boolean }) {
      return opts.validateApiSpec === false ? unused : new Full(opts);
    } as unknown as Patched<typeof Full>;
    OnDemand.cheapStart = true;
    meta.OpenAPISchemaValidator = OnDemand;
  }

  if (!proto.cheapStart) {
    const resolve = proto.resolveSchema;
    proto.resolveSchema = function (this: Preprocessor, schema: unknown) {
      const ref = (schema as { $ref?: unknown } | null)?.$ref;
      if (typeof ref === "string" && !this.resolvedSchemaCache.has(ref)) {
        // Ajv's getSchema looks the key up in these two, then compiles what it found.
        const found = this.ajv.schemas[ref] ?? this.ajv.refs[ref];
        if (found && typeof found === "object") this.resolvedSchemaCache.set(ref, found.schema);
      }
      return resolve.call(this, schema);
    };
    proto.cheapStart = true;
  }
  return true;
}

import fc from "fast-check";

/** The part of JSON Schema the contract uses (it keeps to keywords draft-07 and 3.1 share). */
export interface Schema {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  minProperties?: number;
  maxProperties?: number;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  items?: Schema;
  oneOf?: Schema[];
  anyOf?: Schema[];
  allOf?: Schema[];
  example?: unknown;
  default?: unknown;
}

/**
 * Values shaped by a schema of the bundled contract. `hints` gives, per property name, values
 * that mean something to the server (a stored provider, a real tool), used where the schema
 * wants a string, so that some generated
 * requests get past the engine's own checks instead of all failing on unknown names.
 */
export function schemaArbitrary(
  schema: Schema,
  resolve: (ref: string) => Schema,
  hints: Record<string, fc.Arbitrary<unknown>> = {},
  depth = 0,
): fc.Arbitrary<unknown> {
  const s = schema.$ref ? resolve(schema.$ref) : schema;
  const next = (child: Schema, name?: string): fc.Arbitrary<unknown> => {
    const own = schemaArbitrary(child, resolve, hints, depth + 1);
    // Hints are strings: `provider` names a stored configuration in Form A, not the object of Form B.
    const resolved = child.$ref ? resolve(child.$ref) : child;
    const hint = name !== undefined && resolved.type === "string" ? hints[name] : undefined;
    return hint ? fc.oneof({ arbitrary: hint, weight: 3 }, { arbitrary: own, weight: 1 }) : own;
  };
  if (s.oneOf || s.anyOf) return fc.oneof(...(s.oneOf ?? s.anyOf)!.map((x) => next(x)));
  if (s.allOf) return next(Object.assign({}, ...s.allOf.map((x) => (x.$ref ? resolve(x.$ref) : x))));
  if (s.enum) return fc.constantFrom(...s.enum);
  const type = Array.isArray(s.type) ? s.type[0] : (s.type ?? (s.properties ? "object" : "string"));
  switch (type) {
    case "string":
      if (s.format === "uuid") return fc.uuid();
      return fc.string({ minLength: s.minLength ?? 0, maxLength: Math.min(s.maxLength ?? 24, 24) });
    case "integer":
      return fc.integer({ min: s.minimum ?? -1000, max: Math.min(s.maximum ?? 100_000, 100_000) });
    case "number":
      return fc.double({ noNaN: true, noDefaultInfinity: true });
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "array": {
      if (depth > 4) return fc.constant([]);
      const min = s.minItems ?? 0;
      return fc.array(next(s.items ?? {}), { minLength: min, maxLength: Math.max(min, Math.min(s.maxItems ?? 3, 3)) });
    }
    default: {
      if (depth > 4) return fc.constant({});
      const properties = s.properties ?? {};
      const required = s.required ?? [];
      const model = Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, next(v, k)]));
      const known = fc.record(model, { requiredKeys: required.filter((k) => k in properties) });
      const extra = s.additionalProperties;
      if (!extra || extra === true) return known;
      // Sections named by the client (service types): as many as min/maxProperties leave room for.
      const room = {
        min: Math.max(0, (s.minProperties ?? 0) - required.length),
        max: Math.max(0, Math.min(2, (s.maxProperties ?? required.length + 2) - required.length)),
      };
      const keys = hints["*key"] ?? fc.string({ minLength: 1, maxLength: 12 });
      return fc
        .tuple(known, fc.array(fc.tuple(keys as fc.Arbitrary<string>, next(extra)), { minLength: room.min, maxLength: Math.max(room.min, room.max) }))
        .map(([obj, pairs]) => {
          const out = { ...(obj as Record<string, unknown>) };
          for (const [k, v] of pairs) if (!(k in properties)) out[k] = v;
          return out;
        });
    }
  }
}

/** The same value with one thing wrong: a field of the wrong type, one too many, or a huge one. */
export function mutated(value: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  const wrong = fc.oneof(
    fc.constant(null),
    fc.integer(),
    fc.boolean(),
    fc.constant([]),
    fc.constant({}),
    fc.string({ maxLength: 8 }),
    fc.constant({ toString: "x", constructor: { prototype: { polluted: true } } }),
    fc.jsonValue({ maxDepth: 3 }),
  );
  return fc.tuple(value, fc.nat(), wrong, fc.constantFrom("replace", "extra", "huge", "drop", "nest")).map(([v, pick, w, how]) => {
    if (!v || typeof v !== "object" || Array.isArray(v)) return how === "huge" ? "x".repeat(300_000) : w;
    const out = { ...(v as Record<string, unknown>) };
    const keys = Object.keys(out);
    const key = keys.length ? keys[pick % keys.length] : "anything";
    if (how === "replace") out[key] = w;
    else if (how === "extra") out[`extra_${pick % 7}`] = w;
    else if (how === "huge") out[key] = "x".repeat(300_000);
    else if (how === "drop") delete out[key];
    else out[key] = { [key]: out[key], nested: [out[key], w] };
    return out;
  });
}

import { createRequire } from "node:module";

/** The part of an Ajv instance `useAjvCache` calls (Ajv 8's public methods). */
interface AjvLike {
  getSchema(key: string): unknown;
  addSchema(schema: object, key: string): unknown;
}
type UseAjvCache = ((ajv: AjvLike, schema: object, key: string) => unknown) & { cheapCompiles?: true };

/** The spec parts express-openapi-validator puts into each schema it hands to Ajv, only for `$ref`s to resolve against. */
const SPEC_PARTS = ["paths", "components"] as const;

/**
 * express-openapi-validator (5.6.x) builds a request's validators on the first request of each
 * method, route and request Content-Type (the response's too, one per status), each through
 * `useAjvCache`, and each schema it adds holds the whole contract's `paths` and `components`
 * for its `$ref`s. Two costs follow, both in CPU on a request, not at start:
 * - Ajv's `addSchema` walks every key of the schema it is given looking for `$id`s and
 *   anchors (json-schema-traverse, `allKeys`): the whole contract, some 25 ms, for each of
 *   these schemas. The contract has neither (checked once per spec object here), so the
 *   two parts are handed to Ajv as non-enumerable properties: the walk skips them, the `$ref`s
 *   still resolve through them (Ajv reads a JSON pointer property by property);
 * - a route asked with another Content-Type, or for another status with the same schema,
 *   compiles the same schema again under another key. Within one Ajv (its options are the
 *   validator's) a schema equal to one already compiled gets that validator (an Ajv validator
 *   keeps nothing between calls but the `errors` of the last one, which its caller reads at once).
 * In the generated-requests test these were three quarters of the server's CPU.
 *
 * @returns whether it is in place (false when the validator no longer works this way)
 */
export function cheapValidatorCompiles(): boolean {
  const fromValidator = createRequire(createRequire(import.meta.url).resolve("express-openapi-validator"));
  const util = fromValidator("./middlewares/util") as { useAjvCache?: UseAjvCache };
  const original = util.useAjvCache;
  if (typeof original !== "function") return false;
  if (original.cheapCompiles) return true;

  const compiled = new WeakMap<AjvLike, Map<string, unknown>>();
  const cheap: UseAjvCache = (ajv, schema, key) => {
    const found = ajv.getSchema(key);
    if (found) return found;
    const own = ownPart(schema);
    if (own === undefined) return original(ajv, schema, key);
    let byContent = compiled.get(ajv);
    if (!byContent) compiled.set(ajv, (byContent = new Map()));
    const same = byContent.get(own);
    if (same) return same;
    ajv.addSchema(withSpecHidden(schema), key);
    const validator = ajv.getSchema(key);
    if (validator) byContent.set(own, validator);
    return validator;
  };
  cheap.cheapCompiles = true;
  util.useAjvCache = cheap;
  return true;
}

/** Spec objects (a `paths` or `components`) by whether any schema in them has an `$id` or an anchor. */
const identified = new WeakMap<object, boolean>();

function hasIdentifiers(part: object): boolean {
  let known = identified.get(part);
  if (known === undefined) {
    known = /"\$(id|anchor|dynamicAnchor)"\s*:/.test(JSON.stringify(part));
    identified.set(part, known);
  }
  return known;
}

/**
 * The schema without the spec's parts, as text, with the identity of those parts: the key
 * under which an equal schema was compiled. Undefined when this schema cannot take the cheap
 * path (a spec part that names an `$id` or anchor, which Ajv must find by walking it; a function).
 */
function ownPart(schema: object): string | undefined {
  const record = schema as Record<string, unknown>;
  const parts: unknown[] = [];
  for (const name of SPEC_PARTS) {
    const part = record[name];
    if (part === undefined) continue;
    if (!part || typeof part !== "object" || hasIdentifiers(part)) return undefined;
    parts.push(part);
  }
  const rest = Object.fromEntries(Object.entries(record).filter(([k]) => !(SPEC_PARTS as readonly string[]).includes(k)));
  // A function (a serializer's) would be left out of the text: such a schema is compiled as it comes.
  let exact = true;
  const text = JSON.stringify(rest, (_k, v: unknown) => {
    if (typeof v === "function") exact = false;
    return v;
  });
  return exact ? `${specId(parts)}:${text}` : undefined;
}

/** A number per distinct list of spec objects: equal text over other spec objects is not the same schema. */
const specIds = new WeakMap<object, Map<object | undefined, number>>();
let nextSpecId = 0;
function specId(parts: unknown[]): number {
  const [first, second] = parts as Array<object | undefined>;
  if (!first) return -1;
  let bySecond = specIds.get(first);
  if (!bySecond) specIds.set(first, (bySecond = new Map()));
  let id = bySecond.get(second);
  if (id === undefined) bySecond.set(second, (id = nextSpecId++));
  return id;
}

function withSpecHidden(schema: object): object {
  const copy: Record<string, unknown> = { ...schema };
  for (const name of SPEC_PARTS) {
    if (!(name in copy)) continue;
    const value = copy[name];
    delete copy[name];
    Object.defineProperty(copy, name, { value, enumerable: false, writable: true, configurable: true });
  }
  return copy;
}

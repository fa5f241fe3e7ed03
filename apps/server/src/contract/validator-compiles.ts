import { createHash } from "node:crypto";
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
 *   compiles the same schema again under another key; and each app the process makes (the
 *   tests make many) has its own Ajvs, which compile every route again. A schema equal to one
 *   already compiled, over an equal contract, by an Ajv made the same way (see ajvKey) gets
 *   that validator (an Ajv validator keeps nothing between calls but the `errors` of the last
 *   one, which its caller reads at once).
 * In the generated-requests test these were three quarters of the server's CPU.
 *
 * @returns whether it is in place (false when the validator no longer works this way)
 */
export function cheapValidatorCompiles(): boolean {
  const fromValidator = createRequire(createRequire(import.meta.url).resolve("express-openapi-validator"));
  const util = fromValidator("./middlewares/util") as { useAjvCache?: UseAjvCache };
  const factories = fromValidator("./framework/ajv") as Partial<Record<(typeof FACTORIES)[number], AjvFactory>>;
  const original = util.useAjvCache;
  if (typeof original !== "function" || FACTORIES.some((name) => typeof factories[name] !== "function")) return false;
  if (original.cheapCompiles) return true;

  for (const name of FACTORIES) {
    const create = factories[name]!;
    factories[name] = (spec, options) => {
      const ajv = create(spec, options);
      made.set(ajv, { kind: name, spec, options: identityText(options) });
      return ajv;
    };
  }
  const cheap: UseAjvCache = (ajv, schema, key) => {
    const found = ajv.getSchema(key);
    if (found) return found;
    const own = ownPart(schema);
    if (own === undefined) return original(ajv, schema, key);
    const whose = ajvKey(ajv);
    const same = compiled.get(`${whose}\n${own}`);
    if (same) return same;
    ajv.addSchema(withSpecHidden(schema), key);
    const validator = ajv.getSchema(key);
    if (validator) compiled.set(`${whose}\n${own}`, validator);
    return validator;
  };
  cheap.cheapCompiles = true;
  util.useAjvCache = cheap;
  return true;
}

/** The validator's two makers of an Ajv (framework/ajv), each read at its call: replaced to know what each Ajv was made of. */
const FACTORIES = ["createRequestAjv", "createResponseAjv"] as const;
type AjvFactory = (spec: { openapi?: string; components?: object }, options: object) => AjvLike;

/** What an Ajv was made of: the maker (which keywords it adds), the spec (its components it adds, its OpenAPI version), the options. */
const made = new WeakMap<AjvLike, { kind: string; spec: Parameters<AjvFactory>[0]; options: string }>();

/**
 * Validators by the Ajv they were compiled in (see ajvKey) and the schema (see ownPart), for the
 * process: each app's validator makes its own Ajvs, and an app over the same contract with the
 * same options would compile each route's schemas again.
 */
const compiled = new Map<string, unknown>();

/**
 * Two Ajvs made by the same maker, of specs equal in version and components, with equal options
 * (a function or any object that is not plain, by identity) compile a schema to validators that
 * accept the same data. One made otherwise is its own.
 */
function ajvKey(ajv: AjvLike): string {
  const origin = made.get(ajv);
  if (!origin) return `ajv ${identity(ajv)}`;
  // Read at the first compilation, after the validator's preprocessor has changed the spec in place.
  return `${origin.kind} ${origin.spec.openapi} ${origin.options} ${partKey(origin.spec.components)?.text ?? identity(origin.spec)}`;
}

const identities = new WeakMap<object, number>();
let nextIdentity = 0;
function identity(value: object): number {
  let id = identities.get(value);
  if (id === undefined) identities.set(value, (id = nextIdentity++));
  return id;
}

/** Options as text, but a function, a RegExp or an object of a class by identity: their content is not in JSON. */
function identityText(options: object): string {
  return JSON.stringify(options, (_k, v: unknown) => {
    if (typeof v === "function") return `function ${identity(v)}`;
    if (v && typeof v === "object" && !Array.isArray(v) && ![Object.prototype, null].includes(Object.getPrototypeOf(v))) return `object ${identity(v)}`;
    return v;
  });
}

/** A spec part's content: its hash, and whether any schema in it has an `$id` or an anchor. */
interface PartKey {
  text: string;
  identified: boolean;
}
const partKeys = new WeakMap<object, PartKey>();

/** Read once per spec object (a `paths` or `components`), whose content stays as the preprocessor left it. */
function partKey(part: unknown): PartKey | undefined {
  if (!part || typeof part !== "object") return undefined;
  let known = partKeys.get(part);
  if (!known) {
    // Without a replacer: several times faster on the whole contract. A function left out of the
    // text is a serializer the preprocessor put in from the options' serDes, which ajvKey names.
    const json = JSON.stringify(part);
    known = { text: createHash("sha1").update(json).digest("base64"), identified: /"\$(id|anchor|dynamicAnchor)"\s*:/.test(json) };
    partKeys.set(part, known);
  }
  return known;
}

/**
 * The schema without the spec's parts, as text, with the content of those parts: the key
 * under which an equal schema was compiled. Undefined when this schema cannot take the cheap
 * path (a spec part that names an `$id` or anchor, which Ajv must find by walking it; a function).
 */
function ownPart(schema: object): string | undefined {
  const record = schema as Record<string, unknown>;
  const parts: string[] = [];
  for (const name of SPEC_PARTS) {
    if (record[name] === undefined) continue;
    const part = partKey(record[name]);
    if (!part || part.identified) return undefined;
    parts.push(`${name} ${part.text}`);
  }
  const rest = Object.fromEntries(Object.entries(record).filter(([k]) => !(SPEC_PARTS as readonly string[]).includes(k)));
  // A function (a serializer's) would be left out of the text: such a schema is compiled as it comes.
  let exact = true;
  const text = JSON.stringify(rest, (_k, v: unknown) => {
    if (typeof v === "function") exact = false;
    return v;
  });
  return exact ? `${parts.join(" ")}:${text}` : undefined;
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

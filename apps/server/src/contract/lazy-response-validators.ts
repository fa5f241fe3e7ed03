import { createRequire } from "node:module";

type Validators = Record<string, Record<string, unknown>>;

interface ResponseValidatorLike {
  ajvBody: unknown;
  spec: { paths?: unknown; components?: Components };
  buildValidators(responses: Record<string, unknown> | undefined, ajvCacheKey: string): Validators;
}

type Components = Record<string, Record<string, unknown> | undefined>;

type Patched<T> = T & { lazyStatuses?: true };

/** An Ajv stand-in that compiles nothing: what buildValidators returns with it has the real one's shape. */
const shapeOnly = () => {
  const added = new Set<string>();
  return {
    getSchema: (key: string) => (added.has(key) ? () => true : undefined),
    addSchema: (_schema: unknown, key: string) => void added.add(key),
  };
};

/** Whether any `$ref` of the spec points into its `paths` (the bundled contract's all point into `components`). */
function refersToPaths(node: unknown): boolean {
  if (!node || typeof node !== "object") return false;
  const ref = (node as { $ref?: unknown }).$ref;
  if (typeof ref === "string" && ref.startsWith("#/paths")) return true;
  return Object.values(node).some(refersToPaths);
}

/** The components `root` reaches through `$ref`s, transitively: all a schema rooted in it can resolve. */
function reachableComponents(components: Components, root: unknown): Components {
  const out: Components = {};
  const walk = (node: unknown): void => {
    if (!node || typeof node !== "object") return;
    const ref = (node as { $ref?: unknown }).$ref;
    if (typeof ref === "string" && ref.startsWith("#/components/")) {
      const [kind, rawName] = ref.slice("#/components/".length).split("/");
      const name = decodeURIComponent(rawName ?? "")
        .replace(/~1/g, "/")
        .replace(/~0/g, "~");
      const target = components[kind]?.[name];
      if (target !== undefined && !(out[kind] && name in out[kind])) {
        out[kind] = { ...out[kind], [name]: target };
        walk(target);
      }
    }
    for (const value of Object.values(node)) walk(value);
  };
  walk(root);
  return out;
}

/**
 * express-openapi-validator (5.6.x), checking responses, compiles at an operation's first answer
 * a validator for every status the contract declares for it, though an answer has one status.
 * Each compilation has Ajv walk the whole contract (the validator roots each response schema
 * in the spec's `paths` and `components`): in the contract tests, most of the server's CPU.
 * Here a status's validators are compiled when an answer with that status is checked, by the
 * validator's own code and under its own Ajv cache key; which statuses and media types there
 * are is read first with an Ajv that compiles nothing, so a status the validator would not
 * check (no JSON content) is absent as before. And unless a reference points into `paths`, the
 * root it compiles under leaves `paths` out, and holds only the components the status's
 * response reaches: the rest of the contract, which Ajv walked at each compilation for nothing.
 *
 * @returns whether it is in place (false when the validator no longer works this way)
 */
export function lazyResponseValidators(): boolean {
  const fromValidator = createRequire(createRequire(import.meta.url).resolve("express-openapi-validator"));
  const mod = fromValidator("./middlewares/openapi.response.validator") as { ResponseValidator?: { prototype: Patched<ResponseValidatorLike> } };
  const proto = mod.ResponseValidator?.prototype;
  if (typeof proto?.buildValidators !== "function") return false;
  if (proto.lazyStatuses) return true;
  const build = proto.buildValidators;
  const withoutPaths = new WeakMap<object, object>();
  // One root per response object: the same status asked for again (another request Content-Type
  // keys another build) gets the same objects, so the compile cache knows the schema it already has.
  const roots = new WeakMap<object, object>();
  const rootFor = (lean: object, spec: ResponseValidatorLike["spec"], response: unknown): object => {
    const made = () => ({ ...lean, components: reachableComponents(spec.components ?? {}, response) });
    if (!response || typeof response !== "object") return made();
    let root = roots.get(response);
    if (!root) roots.set(response, (root = made()));
    return root;
  };
  proto.buildValidators = function (this: ResponseValidatorLike, responses, ajvCacheKey) {
    const spec = this.spec;
    let lean = withoutPaths.get(spec);
    if (!lean) withoutPaths.set(spec, (lean = refersToPaths(spec) ? spec : { ...spec, paths: {} }));
    const shape = build.call(Object.assign(Object.create(this) as ResponseValidatorLike, { ajvBody: shapeOnly() }), responses, ajvCacheKey);
    const validators: Validators = {};
    for (const code of Object.keys(shape)) {
      let built: Record<string, unknown> | undefined;
      Object.defineProperty(validators, code, {
        enumerable: true,
        get: () => {
          if (built) return built;
          const response = responses?.[code];
          const own = rootFor(lean, spec, response);
          built = build.call(Object.assign(Object.create(this) as ResponseValidatorLike, { spec: own }), { [code]: response }, ajvCacheKey)[code];
          return built;
        },
      });
    }
    return validators;
  };
  proto.lazyStatuses = true;
  return true;
}

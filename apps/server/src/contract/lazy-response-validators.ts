import { createRequire } from "node:module";

type Validators = Record<string, Record<string, unknown>>;

interface ResponseValidatorLike {
  ajvBody: unknown;
  spec: { paths?: unknown };
  buildValidators(responses: Record<string, unknown> | undefined, ajvCacheKey: string): Validators;
}

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

/**
 * express-openapi-validator (5.6.x), checking responses, compiles at an operation's first answer
 * a validator for every status the contract declares for it, though an answer has one status.
 * Each compilation has Ajv walk the whole contract (the validator roots each response schema
 * in the spec's `paths` and `components`): in the contract tests, most of the server's CPU.
 * Here a status's validators are compiled when an answer with that status is checked, by the
 * validator's own code and under its own Ajv cache key; which statuses and media types there
 * are is read first with an Ajv that compiles nothing, so a status the validator would not
 * check (no JSON content) is absent as before. And unless a reference points into `paths`, the
 * root it compiles under leaves `paths` out: a third of the contract Ajv walked for nothing.
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
  proto.buildValidators = function (this: ResponseValidatorLike, responses, ajvCacheKey) {
    const spec = this.spec;
    let lean = withoutPaths.get(spec);
    if (!lean) withoutPaths.set(spec, (lean = refersToPaths(spec) ? spec : { ...spec, paths: {} }));
    const self = Object.assign(Object.create(this) as ResponseValidatorLike, { spec: lean });
    const shape = build.call(Object.assign(Object.create(this) as ResponseValidatorLike, { ajvBody: shapeOnly() }), responses, ajvCacheKey);
    const validators: Validators = {};
    for (const code of Object.keys(shape)) {
      let built: Record<string, unknown> | undefined;
      Object.defineProperty(validators, code, {
        enumerable: true,
        get: () => (built ??= build.call(self, { [code]: responses?.[code] }, ajvCacheKey)[code]),
      });
    }
    return validators;
  };
  proto.lazyStatuses = true;
  return true;
}

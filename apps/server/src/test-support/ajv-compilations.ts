import { createRequire } from "node:module";

// express-openapi-validator's own Ajv (its dependency, not ours), whose compilations are counted.
const fromValidator = createRequire(createRequire(import.meta.url).resolve("express-openapi-validator"));
const ajvCore = createRequire(fromValidator.resolve("ajv"))("./core") as { default: { prototype: { _compileSchemaEnv(env: unknown): unknown } } };

/** How many schemas the validator's Ajv compiled while `work` ran. */
export function compilations(work: () => void): number {
  const proto = ajvCore.default.prototype;
  const compile = proto._compileSchemaEnv;
  let count = 0;
  proto._compileSchemaEnv = function (this: unknown, env: unknown) {
    count++;
    return compile.call(this, env);
  };
  try {
    work();
  } finally {
    proto._compileSchemaEnv = compile;
  }
  return count;
}

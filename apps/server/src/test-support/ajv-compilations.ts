import { createRequire } from "node:module";

// express-openapi-validator's own Ajv (its dependency, not ours), whose compilations are counted.
const fromValidator = createRequire(createRequire(import.meta.url).resolve("express-openapi-validator"));
const ajvCore = createRequire(fromValidator.resolve("ajv"))("./core") as { default: { prototype: { _compileSchemaEnv(env: unknown): unknown } } };

/** How many schemas the validator's Ajv compiled while `work` ran. */
export function compilations(work: () => void): number {
  const counting = count();
  try {
    work();
  } finally {
    counting.stop();
  }
  return counting.count;
}

/** The same, while an asynchronous `work` runs: whatever else compiles meanwhile is counted too. */
export async function compilationsDuring(work: () => Promise<unknown>): Promise<number> {
  const counting = count();
  try {
    await work();
  } finally {
    counting.stop();
  }
  return counting.count;
}

function count(): { count: number; stop(): void } {
  const proto = ajvCore.default.prototype;
  const compile = proto._compileSchemaEnv;
  const counting = { count: 0, stop: () => void (proto._compileSchemaEnv = compile) };
  proto._compileSchemaEnv = function (this: unknown, env: unknown) {
    counting.count++;
    return compile.call(this, env);
  };
  return counting;
}

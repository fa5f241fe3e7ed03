/**
 * What a node of the contract stands for: itself, or the component its local `$ref`
 * (`#/components/<kind>/<name>`) names, followed through references to references. A
 * reference to nothing gives undefined.
 */
export function dereferenced<T extends object>(contract: object, node: T | undefined): T | undefined {
  let current: unknown = node;
  // A cycle of references names nothing; a contract never nests them this deep.
  for (let hops = 0; hops < 16; hops++) {
    const ref = (current as { $ref?: unknown } | undefined)?.$ref;
    if (typeof ref !== "string") return current as T | undefined;
    const path = ref.startsWith("#/")
      ? ref
          .slice(2)
          .split("/")
          .map((s) => s.replaceAll("~1", "/").replaceAll("~0", "~"))
      : undefined;
    current = path?.reduce<unknown>((at, key) => (at as Record<string, unknown> | undefined)?.[key], contract);
  }
  return undefined;
}

// Describes, in the bundled contract, the answers an `X-Fields` mask cuts down.
//
// The hand-written contract gives each answer its whole record, with the fields that are
// always there marked required: that is what the SDK's types and the server's own response
// check rest on. A masked answer holds only the fields the mask names, so on the wire it
// breaks those `required`s, and a proxy that checks the contract (`prism proxy --errors`)
// reports it. So for every operation that takes `X-Fields`, each JSON success answer becomes
// `anyOf: [Whole, Masked]`, where `Masked` is derived here from `Whole`: the same fields,
// types and limits, nothing required, at every depth (a mask nests: `executions{id,state}`).
// The media type keeps the whole schema's place in `x-fields-masked` so that `wholeAnswers`
// (src/whole-answers.ts) can undo the change for checks that see the answer before the mask
// (the server's own).

const MASK_PARAMETER = "#/components/parameters/XFields";
const SCHEMA_REF = "#/components/schemas/";
const RESPONSE_REF = "#/components/responses/";
const MASKED_MARK = "x-fields-masked";

/** Rewrites `spec` in place; returns the names of the masked schemas it added. */
export function describeMaskedAnswers(spec) {
  const schemas = ((spec.components ??= {}).schemas ??= {});
  const added = new Set();
  const maskedRef = (name) => {
    const maskedName = `${name}Masked`;
    if (!added.has(maskedName)) {
      if (schemas[maskedName]) throw new Error(`schema ${maskedName} exists: it would hide the masked form of ${name}`);
      added.add(maskedName);
      schemas[maskedName] = {
        ...masked(schemas[name]),
        title: `${name} (masked)`,
        description: `${name} as an \`X-Fields\` mask cuts it down: only the fields the mask names, at every depth`,
      };
    }
    return { $ref: SCHEMA_REF + maskedName };
  };

  const masked = (schema) => {
    if (!schema || typeof schema !== "object" || Array.isArray(schema)) return schema;
    if (typeof schema.$ref === "string") {
      if (!schema.$ref.startsWith(SCHEMA_REF)) throw new Error(`cannot mask ${schema.$ref}`);
      const name = schema.$ref.slice(SCHEMA_REF.length);
      return isScalar(schemas[name], schemas) ? schema : maskedRef(name);
    }
    const out = {};
    for (const [key, value] of Object.entries(schema)) {
      // What a mask removes: the fields it does not name, whatever made them required.
      if (key === "required" || key === "minProperties" || key === "dependentRequired") continue;
      if (key === "properties") out.properties = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, masked(v)]));
      else if (key === "items" || key === "additionalProperties") out[key] = masked(value);
      // A cut-down value may fit several branches: `oneOf` would then refuse it.
      else if (key === "oneOf" || key === "anyOf") out.anyOf = value.map(masked);
      else if (key === "allOf") out.allOf = value.map(masked);
      else out[key] = value;
    }
    return out;
  };

  const doneResponses = new Set();
  for (const item of Object.values(spec.paths ?? {})) {
    for (const [method, op] of Object.entries(item)) {
      if (method === "parameters" || !op?.parameters?.some((p) => p.$ref === MASK_PARAMETER)) continue;
      for (const [status, response] of Object.entries(op.responses ?? {})) {
        if (!/^2/.test(status)) continue;
        let target = response;
        if (typeof response.$ref === "string") {
          if (doneResponses.has(response.$ref)) continue;
          doneResponses.add(response.$ref);
          target = spec.components.responses[response.$ref.slice(RESPONSE_REF.length)];
        }
        const media = target.content?.["application/json"];
        if (!media?.schema || media[MASKED_MARK]) continue;
        const whole = media.schema;
        const cut = masked(whole);
        if (JSON.stringify(cut) === JSON.stringify(whole)) continue;
        media.schema = {
          description: "The whole record; with an `X-Fields` mask, only the fields it names",
          anyOf: [whole, cut],
        };
        media[MASKED_MARK] = true;
      }
    }
  }
  return [...added];
}

/** A schema a mask cannot cut into (a string, a number, an enum...): it needs no masked twin. */
function isScalar(schema, schemas, seen = new Set()) {
  if (!schema || typeof schema !== "object") return true;
  if (typeof schema.$ref === "string") {
    const name = schema.$ref.slice(SCHEMA_REF.length);
    if (seen.has(name)) return false;
    seen.add(name);
    return isScalar(schemas[name], schemas, seen);
  }
  const types = [schema.type ?? []].flat();
  if (types.includes("object") || types.includes("array") || schema.properties || schema.items || schema.additionalProperties) return false;
  return [...(schema.allOf ?? []), ...(schema.anyOf ?? []), ...(schema.oneOf ?? [])].every((s) => isScalar(s, schemas, seen));
}

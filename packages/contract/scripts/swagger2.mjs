// The Swagger 2.0 rendition of the bundled contract, served at /api/v1/swagger.json where
// flask-restplus served it, for the clients that load only 2.0 (bravado, swagger-codegen 2).
//
// Why ours: the one maintained-looking converter on npm (api-spec-converter) is large, old,
// and reads OpenAPI 3.0, not 3.1. This is the subset our contract uses, and every keyword it
// does not know fails the build (`unknown`), so the rendition never silently drops a rule.
// What 2.0 cannot say is kept as an `x-` extension (`x-nullable`, `x-oneOf`...) and the schema
// is widened so that every answer the 3.1 contract allows stays valid for a 2.0 client.

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch"];

/** Returns a new Swagger 2.0 document; `spec` is the bundled OpenAPI 3.1 contract. */
export function toSwagger2(spec) {
  const components = spec.components ?? {};
  const resolve = (object, prefix) =>
    typeof object?.$ref === "string" && object.$ref.startsWith(prefix) ? components[prefix.split("/")[2]][object.$ref.slice(prefix.length)] : object;

  const out = { swagger: "2.0", info: info(spec.info) };
  const base = spec.servers?.[0]?.url;
  if (base) {
    if (!base.startsWith("/")) throw new Error(`servers[0].url '${base}' is not a path: a 2.0 rendition needs host and basePath`);
    out.basePath = base;
  }
  if (spec.tags) out.tags = spec.tags;
  out.consumes = ["application/json"];
  out.produces = ["application/json"];
  out.paths = {};
  for (const [path, item] of Object.entries(spec.paths ?? {})) {
    const outItem = (out.paths[path] = {});
    for (const [key, value] of Object.entries(item)) {
      if (key === "parameters") outItem.parameters = value.map((p) => parameter(p));
      else if (METHODS.includes(key)) outItem[key] = operation(value);
      else if (key === "summary" || key === "description") continue;
      else unknown(`path item key '${key}'`);
    }
  }
  out.definitions = Object.fromEntries(Object.entries(components.schemas ?? {}).map(([name, s]) => [name, schema(s)]));
  out.parameters = Object.fromEntries(Object.entries(components.parameters ?? {}).map(([name, p]) => [name, parameter(p, true)]));
  out.responses = Object.fromEntries(Object.entries(components.responses ?? {}).map(([name, r]) => [name, response(r)]));
  out.securityDefinitions = Object.fromEntries(Object.entries(components.securitySchemes ?? {}).map(([name, s]) => [name, security(s)]));
  if (spec.security) out.security = spec.security;
  for (const [key, value] of Object.entries(spec)) if (key.startsWith("x-")) out[key] = value;
  return out;

  function operation(op) {
    const out = {};
    const parameters = (op.parameters ?? []).map((p) => parameter(p));
    const consumes = [];
    if (op.requestBody) {
      const body = resolve(op.requestBody, "#/components/requestBodies/");
      const media = Object.entries(body.content ?? {});
      consumes.push(...media.map(([type]) => type));
      // 2.0 has one body schema: several media types of ours share it (checked).
      const schemas = new Set(media.map(([, m]) => JSON.stringify(m.schema ?? {})));
      if (schemas.size > 1) unknown("a request body whose media types have different schemas");
      parameters.push({
        name: "body",
        in: "body",
        required: body.required === true,
        ...(body.description ? { description: body.description } : {}),
        schema: schema(media[0]?.[1].schema ?? {}),
      });
    }
    const produces = new Set();
    const responses = {};
    for (const [status, r] of Object.entries(op.responses ?? {})) {
      const whole = resolve(r, "#/components/responses/");
      for (const type of Object.keys(whole.content ?? {})) produces.add(type);
      responses[status] = r.$ref ? { $ref: r.$ref.replace("#/components/responses/", "#/responses/") } : response(r);
    }
    for (const [key, value] of Object.entries(op)) {
      if (key === "parameters" || key === "requestBody" || key === "responses") continue;
      if (["operationId", "tags", "summary", "description", "deprecated", "security", "externalDocs"].includes(key)) out[key] = value;
      else if (key.startsWith("x-")) out[key] = value;
      else if (key !== "callbacks" && key !== "servers") unknown(`operation key '${key}'`);
    }
    if (consumes.length) out.consumes = consumes;
    if (produces.size) out.produces = [...produces];
    if (parameters.length) out.parameters = parameters;
    out.responses = responses;
    return out;
  }

  function parameter(p, isComponent = false) {
    if (p.$ref) {
      if (!isComponent) return { $ref: p.$ref.replace("#/components/parameters/", "#/parameters/") };
      unknown("a component parameter that is a $ref");
    }
    if (p.in === "cookie" || p.content) unknown(`parameter '${p.name}' in ${p.in}${p.content ? " with content" : ""}`);
    const out = { name: p.name, in: p.in };
    if (p.description) out.description = p.description;
    if (p.required || p.in === "path") out.required = true;
    Object.assign(out, simple(p.schema ?? { type: "string" }, `parameter '${p.name}'`));
    if (out.type === "array") out.collectionFormat = collectionFormat(p);
    if (p.example !== undefined) out["x-example"] = p.example;
    // 2.0 sends a query value as it is given: `allowReserved` (3.x's leave-reserved-characters-unencoded) is its only way.
    for (const key of Object.keys(p)) {
      if (!["name", "in", "description", "required", "schema", "example", "style", "explode", "allowReserved"].includes(key) && !key.startsWith("x-"))
        unknown(`parameter key '${key}'`);
    }
    return out;
  }

  function response(r) {
    const out = { description: r.description ?? "" };
    const media = Object.entries(r.content ?? {});
    // 2.0 has one schema per response: the JSON one, else the first (all ours agree).
    const chosen = media.find(([type]) => /json/.test(type)) ?? media[0];
    if (chosen?.[1].schema) out.schema = schema(chosen[1].schema);
    const examples = {};
    for (const [type, m] of media) {
      const first = m.example ?? Object.values(m.examples ?? {}).map((e) => resolve(e, "#/components/examples/"))[0]?.value;
      if (first !== undefined) examples[type] = first;
    }
    if (Object.keys(examples).length) out.examples = examples;
    if (r.headers) {
      out.headers = Object.fromEntries(
        Object.entries(r.headers).map(([name, h]) => {
          const header = resolve(h, "#/components/headers/");
          return [
            name,
            {
              ...(header.description ? { description: header.description } : {}),
              ...simple(header.schema ?? { type: "string" }, `header '${name}'`),
            },
          ];
        }),
      );
    }
    return out;
  }

  /** A parameter's or a header's type: 2.0 writes it inline, and only for scalars and arrays of them. */
  function simple(s, where, nested = false) {
    const resolved = resolve(s, "#/components/schemas/");
    const converted = schema(resolved);
    if (converted.$ref || converted.allOf || converted["x-oneOf"] || converted["x-anyOf"]) unknown(`a composed schema for ${where}`);
    if (converted.type === "object") unknown(`an object for ${where}`);
    if (!converted.type) converted.type = "string";
    const out = {};
    for (const [key, value] of Object.entries(converted)) {
      if (key === "example" || key === "title" || key === "readOnly" || (nested && key === "description")) continue;
      out[key] = key === "items" ? simple(resolved.items, where, true) : value;
    }
    return out;
  }

  /** How 3.x's `style`/`explode` of an array parameter is spelled in 2.0. */
  function collectionFormat(p) {
    const style = p.style ?? (p.in === "query" || p.in === "cookie" ? "form" : "simple");
    const explode = p.explode ?? style === "form";
    if (style === "form") return explode ? "multi" : "csv";
    if (style === "simple" && !explode) return "csv";
    if (style === "spaceDelimited" && !explode) return "ssv";
    if (style === "pipeDelimited" && !explode) return "pipes";
    return unknown(`parameter '${p.name}' of style ${style}, explode ${explode}`);
  }

  function schema(s) {
    if (s === true) return {};
    if (!s || typeof s !== "object") unknown(`schema ${JSON.stringify(s)}`);
    const out = {};
    for (const [key, value] of Object.entries(s)) {
      switch (key) {
        case "$ref":
          out.$ref = value.replace("#/components/schemas/", "#/definitions/");
          break;
        case "type": {
          const types = [value].flat();
          const real = types.filter((t) => t !== "null");
          if (types.includes("null")) out["x-nullable"] = true;
          if (real.length === 1) out.type = real[0];
          else if (real.length > 1) out["x-type"] = real; // any of several: left open in 2.0
          break;
        }
        case "const":
          out.enum = [value];
          break;
        case "enum":
          // 2.0 has no null type: a null in an enum is said by x-nullable.
          out.enum = value.filter((v) => v !== null);
          if (value.includes(null)) out["x-nullable"] = true;
          break;
        case "examples":
          if (value.length) out.example = value[0];
          break;
        case "exclusiveMinimum":
        case "exclusiveMaximum":
          if (typeof value === "number") {
            out[key === "exclusiveMinimum" ? "minimum" : "maximum"] = value;
            out[key] = true;
          } else out[key] = value;
          break;
        case "properties":
          out.properties = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, schema(v)]));
          break;
        case "items":
          out.items = schema(value);
          break;
        case "additionalProperties":
          out.additionalProperties = typeof value === "boolean" ? value : schema(value);
          break;
        case "allOf":
          out.allOf = value.map(schema);
          break;
        case "oneOf":
        case "anyOf":
          Object.assign(out, widened(value, key));
          break;
        case "writeOnly":
        case "deprecated":
        case "$comment":
          out[`x-${key.replace("$", "")}`] = value;
          break;
        case "not":
          // 2.0 has no `not`: its readers accept what it refuses (reserved names), which the server still refuses.
          out["x-not"] = value;
          break;
        case "contentMediaType":
        case "contentEncoding":
          break;
        case "title":
        case "description":
        case "default":
        case "format":
        case "pattern":
        case "minLength":
        case "maxLength":
        case "minimum":
        case "maximum":
        case "multipleOf":
        case "minItems":
        case "maxItems":
        case "uniqueItems":
        case "minProperties":
        case "maxProperties":
        case "required":
        case "readOnly":
        case "example":
        case "externalDocs":
        case "xml":
          out[key] = value;
          break;
        default:
          if (key.startsWith("x-")) out[key] = value;
          else unknown(`schema keyword '${key}'`);
      }
    }
    // An `x-nullable` on a `$ref` needs the ref wrapped: 2.0 ignores siblings of `$ref`.
    if (out.$ref && Object.keys(out).length > 1) {
      const { $ref, ...rest } = out;
      return { ...rest, allOf: [{ $ref }] };
    }
    return out;
  }

  /**
   * 2.0 has no oneOf/anyOf. The branches are kept in `x-oneOf`/`x-anyOf` for tools that read
   * them; the schema itself is widened to one that every branch's values satisfy: objects
   * merge their properties (a property the branches describe differently is widened in turn)
   * and require only what every branch requires; arrays widen their items. Anything else is
   * left open.
   */
  function widened(branches, key) {
    return { [`x-${key}`]: branches.map(schema), ...widest(branches) };
  }

  function widest(branches) {
    if (new Set(branches.map((b) => JSON.stringify(b))).size === 1) return schema(branches[0]);
    const resolved = branches.map((b) => resolveDeep(b));
    const isA = (type) => (b) => [b.type].flat().includes(type) || (type === "object" ? !!b.properties : !!b.items);
    if (resolved.every(isA("array"))) return { type: "array", items: widest(resolved.map((b) => b.items ?? {})) };
    if (!resolved.every(isA("object"))) return {};
    const out = { type: "object" };
    const names = [...new Set(resolved.flatMap((b) => Object.keys(b.properties ?? {})))];
    if (names.length) {
      out.properties = Object.fromEntries(names.map((n) => [n, widest(resolved.filter((b) => b.properties?.[n]).map((b) => b.properties[n]))]));
    }
    // biome-ignore lint/performance/noAccumulatingSpread: each step builds a smaller set; nothing accumulates
    const required = resolved.map((b) => new Set(b.required ?? [])).reduce((a, b) => new Set([...a].filter((x) => b.has(x))));
    if (required.size) out.required = [...required];
    return out;
  }

  function resolveDeep(s) {
    let current = s;
    for (let hops = 0; current?.$ref && hops < 16; hops++) current = resolve(current, "#/components/schemas/");
    if (current?.allOf && !current.properties) {
      const parts = current.allOf.map(resolveDeep);
      return {
        type: "object",
        properties: Object.assign({}, ...parts.map((p) => p.properties ?? {})),
        required: parts.flatMap((p) => p.required ?? []),
      };
    }
    return current ?? {};
  }
}

function info(i) {
  const out = { title: i.title, version: i.version };
  const description = [i.summary, i.description].filter(Boolean).join("\n\n");
  if (description) out.description = description;
  if (i.termsOfService) out.termsOfService = i.termsOfService;
  if (i.contact) out.contact = i.contact;
  if (i.license) out.license = { name: i.license.name, ...(i.license.url ? { url: i.license.url } : {}) };
  return out;
}

function security(s) {
  if (s.type === "http" && s.scheme === "bearer") {
    return {
      type: "apiKey",
      name: "Authorization",
      in: "header",
      description: `${s.description ? s.description + ". " : ""}Send \`Bearer <token>\``,
    };
  }
  if (s.type === "apiKey") return { type: "apiKey", name: s.name, in: s.in, ...(s.description ? { description: s.description } : {}) };
  if (s.type === "http" && s.scheme === "basic") return { type: "basic", ...(s.description ? { description: s.description } : {}) };
  return unknown(`security scheme ${JSON.stringify(s)}`);
}

function unknown(what) {
  throw new Error(`swagger 2.0 rendition: ${what} has no 2.0 form here; teach scripts/swagger2.mjs`);
}

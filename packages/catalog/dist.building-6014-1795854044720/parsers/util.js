const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;
function toNumber(text) {
  if (text === void 0 || !DECIMAL.test(text)) return void 0;
  const n = Number(text);
  return Number.isFinite(n) ? n : void 0;
}
function jsonNumber(v) {
  return typeof v === "number" && Number.isFinite(v) ? v : void 0;
}
function push(out, name, value, unit, tags) {
  if (value === void 0) return;
  const m = { name, value, unit };
  if (tags && Object.keys(tags).length > 0) m.tags = { ...tags };
  out.push(m);
}
function findJsonObject(output, accept) {
  const starts = [];
  const ends = [];
  const re = /^\{|^\}[ \t]*\r?$/gm;
  for (let m = re.exec(output); m; m = re.exec(output)) {
    if (m[0] === "{") starts.push(m.index);
    else ends.push(m.index + 1);
  }
  let attempts = 0;
  for (const s of starts) {
    for (let i = ends.length - 1; i >= 0 && attempts < MAX_JSON_ATTEMPTS; i--, attempts++) {
      const e = ends[i];
      if (e <= s) break;
      try {
        const v = JSON.parse(output.slice(s, e));
        if (isObject(v) && accept(v)) return v;
      } catch {
      }
    }
  }
  return void 0;
}
const MAX_JSON_ATTEMPTS = 64;
function isObject(v) {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
export {
  findJsonObject,
  isObject,
  jsonNumber,
  push,
  toNumber
};
//# sourceMappingURL=util.js.map

function normalizePlatform(platform) {
  return platform.toLowerCase().replace(/[^a-z0-9]+/g, "_").replace(/^_+|_+$/g, "");
}
function platformCandidates(prefix, platform) {
  const tokens = normalizePlatform(platform).split("_").filter(Boolean);
  const keys = [];
  for (let n = tokens.length; n > 0; n--) keys.push(`${prefix}_${tokens.slice(0, n).join("_")}`);
  keys.push(prefix);
  return keys;
}
function pickScript(scripts, prefix, platform) {
  for (const key of platformCandidates(prefix, platform)) {
    const script = scripts[key];
    if (typeof script === "string") return { key, script };
  }
  return void 0;
}
export {
  normalizePlatform,
  pickScript,
  platformCandidates
};
//# sourceMappingURL=platform.js.map

import { toolPackages } from "./tool-version.js";
const README_BEGIN = "<!-- BEGIN GENERATED: built-in catalog (npm run readme -w @benchwright/catalog) -->";
const README_END = "<!-- END GENERATED: built-in catalog -->";
function cell(text) {
  return (text ?? "").replace(/\s*\n\s*/g, " ").replace(/\|/g, "\\|").trim();
}
function code(text) {
  return `\`${text}\``;
}
function debianPackages(tool) {
  return toolPackages(tool, "debian").deb;
}
function value(v) {
  return typeof v === "string" ? JSON.stringify(v) : String(v);
}
function range(p) {
  if (p.enum) return p.enum.map(value).join(", ");
  if (p.pattern) return code(p.pattern);
  if (p.min !== void 0 || p.max !== void 0) return `${p.min ?? ""}..${p.max ?? ""}`;
  return "";
}
function sameParam(a, b) {
  return a !== void 0 && JSON.stringify(a) === JSON.stringify(b);
}
function ownParams(toolParams, w) {
  return Object.entries(w.params).filter(([name, p]) => !sameParam(toolParams[name], p)).map(([name, p]) => `${code(`${name}=${value(p.default)}`)}${p.unit ? ` ${p.unit}` : ""}`).join(", ");
}
function roles(r) {
  if (!r || typeof r !== "object") return "";
  return Object.entries(r).map(([name, role]) => {
    const bits = [`${role.count ?? 1}`, role.serves ? "serves" : ""].filter(Boolean).join(", ");
    return `${code(name)} (${bits})${role.description ? `: ${cell(role.description)}` : ""}`;
  }).join("; ");
}
function sharedParams(tool) {
  const [first, ...rest] = tool.workloads;
  if (!first) return {};
  return Object.fromEntries(Object.entries(first.params).filter(([name, p]) => rest.every((w) => sameParam(w.params[name], p))));
}
function renderTool(tool) {
  const out = [];
  const packages = debianPackages(tool);
  out.push(`### ${code(tool.id)}: ${cell(tool.tool_name)}`, "");
  out.push(cell(tool.description), "");
  const facts = [
    `Parser ${code(tool.parser)}`,
    packages.length ? `Debian packages ${packages.map(code).join(", ")}` : "nothing to install",
    `time limits ${tool.timeout.prepare} s (prepare), ${tool.timeout.run} s (run)`
  ];
  if (tool.aliases?.length) facts.push(`also called ${tool.aliases.map(code).join(", ")}`);
  out.push(`${facts.join("; ")}.`, "");
  const shared = sharedParams(tool);
  if (Object.keys(shared).length) {
    out.push("| parameter (every workload) | type | default | allowed | meaning |", "|---|---|---|---|---|");
    for (const [name, p] of Object.entries(shared)) {
      out.push(`| ${code(name)} | ${p.type} | ${cell(value(p.default))}${p.unit ? ` ${cell(p.unit)}` : ""} | ${cell(range(p))} | ${cell(p.description)} |`);
    }
    out.push("");
  }
  const withRoles = tool.workloads.some((w) => w.roles && Object.keys(w.roles).length);
  out.push(`| workload | what it runs | categories | parameters of its own (default) |${withRoles ? " roles (machines) |" : ""}`);
  out.push(`|---|---|---|---|${withRoles ? "---|" : ""}`);
  for (const w of tool.workloads) {
    const own = ownParams(shared, w);
    const detail = Object.entries(w.params).filter(([name, p]) => !sameParam(shared[name], p) && p.description).map(([name, p]) => `${code(name)}: ${cell(p.description)}${range(p) ? ` (${cell(range(p))})` : ""}`);
    const cells = [
      code(w.id),
      `${cell(w.workload_name)}: ${cell(w.workload_description)}`,
      w.categories.join(", "),
      [own, ...detail.length ? [`<br>${detail.join("; ")}`] : []].join("")
    ];
    if (withRoles) cells.push(roles(w.roles));
    out.push(`| ${cells.join(" | ")} |`);
  }
  out.push("");
  const metrics = Object.entries(tool.metrics ?? {});
  if (metrics.length) {
    out.push("| figure | unit | better | meaning |", "|---|---|---|---|");
    for (const [name, m] of metrics) out.push(`| ${code(name)} | ${cell(m.unit)} | ${m.better} | ${cell(m.description)} |`);
    out.push("");
  }
  return out;
}
function renderCatalogReference(catalog) {
  const tools = [...catalog.tools()].sort((a, b) => a.id.localeCompare(b.id));
  const workloads = tools.reduce((n, t) => n + t.workloads.length, 0);
  const out = [
    README_BEGIN,
    "",
    `${tools.length} tools, ${workloads} workloads. Written from the definitions by \`npm run readme -w @benchwright/catalog\`;`,
    "`src/readme.test.ts` fails when this section is out of date. Parameters a workload declares or",
    "changes are in its row; the others are the tool's, above it.",
    "",
    "| tool | workloads |",
    "|---|---|",
    ...tools.map((t) => `| [${code(t.id)}](#${anchor(t)}) | ${t.workloads.map((w) => w.id).join(", ")} |`),
    ""
  ];
  for (const t of tools) out.push(...renderTool(t));
  out.push(README_END);
  return out.join("\n");
}
function anchor(tool) {
  return `${tool.id}: ${tool.tool_name}`.toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, "").replace(/ /g, "-");
}
function replaceGenerated(readme, section) {
  const begin = readme.indexOf(README_BEGIN);
  const end = readme.indexOf(README_END);
  if (begin < 0 || end < begin) throw new Error(`README.md lacks the lines ${README_BEGIN} and ${README_END}`);
  return readme.slice(0, begin) + section + readme.slice(end + README_END.length);
}
export {
  README_BEGIN,
  README_END,
  debianPackages,
  renderCatalogReference,
  replaceGenerated
};
//# sourceMappingURL=readme.js.map

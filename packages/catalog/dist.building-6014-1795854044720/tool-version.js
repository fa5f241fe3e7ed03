import { pickScript } from "./platform.js";
const PACKAGE = /^[A-Za-z0-9][A-Za-z0-9+._:~-]*$/;
const INSTALLER = /(?:^|[\s;&|(])(bw_apt_install|bw_dnf_install_epel|bw_dnf_install|bw_install)(?=[ \t])/g;
function literalArgs(rest) {
  const line = rest.split(/[\n;&|<>#()`$"'\\]/, 1)[0];
  const out = [];
  for (const word of line.trim().split(/\s+/)) {
    if (!PACKAGE.test(word)) break;
    out.push(word);
  }
  return out;
}
function packagesOf(script) {
  const text = script.replace(/\\\n/g, " ");
  const deb = [];
  const rpm = [];
  for (const m of text.matchAll(INSTALLER)) {
    const args = literalArgs(text.slice(m.index + m[0].length));
    if (m[1] === "bw_apt_install") deb.push(...args);
    else if (m[1] === "bw_install") {
      if (args[0]) deb.push(args[0]);
      if (args[0]) rpm.push(args[1] ?? args[0]);
    } else rpm.push(...args);
  }
  return { deb: [...new Set(deb)], rpm: [...new Set(rpm)] };
}
function toolPackages(tool, platform) {
  const install = pickScript(tool.scripts, "install", platform);
  return install ? packagesOf(install.script) : { deb: [], rpm: [] };
}
const MAX_VERSION_LENGTH = 200;
function firstLine(stdout) {
  const line = stdout.split("\n").map((l) => l.trim()).find(Boolean);
  return line ? line.slice(0, MAX_VERSION_LENGTH) : void 0;
}
const INSTALLED = /^installed (\S+) (\S+)$/;
function readPackageVersions(stdout) {
  const found = /* @__PURE__ */ new Set();
  for (const line of stdout.split("\n")) {
    const m = INSTALLED.exec(line.trim());
    if (m) found.add(`${m[1]} ${m[2]}`);
  }
  return found.size ? [...found].join(", ").slice(0, MAX_VERSION_LENGTH) : void 0;
}
function installedPackages(version) {
  return version.split(", ").flatMap((entry) => {
    const m = /^(\S+) (\S+)$/.exec(entry.trim());
    return m ? [{ name: m[1], version: m[2] }] : [];
  });
}
function packageQuery({ deb, rpm }) {
  const queries = [];
  if (deb.length) queries.push(`dpkg-query -W -f='\${db:Status-Status} \${Package} \${Version}\\n' ${deb.join(" ")}`);
  if (rpm.length) queries.push(`rpm -q --qf 'installed %{NAME} %{VERSION}-%{RELEASE}\\n' ${rpm.join(" ")}`);
  return `{ ${queries.join(" || ")}; } 2>/dev/null; exit 0`;
}
function toolVersionQuery(prelude, tool, platform) {
  const own = pickScript(tool.scripts, "version", platform);
  if (own?.script.trim()) {
    const lib = tool.scripts.lib?.trim() ? ["", tool.scripts.lib.replace(/\s+$/, "")] : [];
    const script = ["set -euo pipefail", prelude.replace(/\s+$/, ""), ...lib, "", own.script.replace(/\s+$/, ""), ""].join("\n");
    return { script, read: firstLine, source: "script" };
  }
  const packages = toolPackages(tool, platform);
  if (!packages.deb.length && !packages.rpm.length) return void 0;
  return { script: packageQuery(packages), read: readPackageVersions, source: "packages" };
}
export {
  installedPackages,
  packagesOf,
  readPackageVersions,
  toolPackages,
  toolVersionQuery
};
//# sourceMappingURL=tool-version.js.map

import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadCatalog } from "./catalog.js";
import { installedPackages, packagesOf, readPackageVersions, toolPackages } from "./tool-version.js";

const catalog = loadCatalog({ onError: (file, e) => expect.fail(`${file}: ${e.message}`) });
const dir = mkdtempSync(join(tmpdir(), "bw-tool-version-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the packages a tool's install script installs", () => {
  it("are read off the prelude's installers, by package manager", () => {
    expect(packagesOf("bw_apt_install sysbench")).toEqual({ deb: ["sysbench"], rpm: [] });
    expect(packagesOf("bw_dnf_install_epel p7zip p7zip-plugins")).toEqual({ deb: [], rpm: ["p7zip", "p7zip-plugins"] });
    expect(packagesOf("bw_install p7zip-full p7zip")).toEqual({ deb: ["p7zip-full"], rpm: ["p7zip"] });
    expect(packagesOf("bw_install bonnie++")).toEqual({ deb: ["bonnie++"], rpm: ["bonnie++"] });
  });

  it("stop at a shell operator, an expansion or a quote, and join continued lines", () => {
    expect(packagesOf("bw_apt_install openfoam openfoam-examples && bw_foam_unpack_examples").deb).toEqual(["openfoam", "openfoam-examples"]);
    expect(packagesOf('bw_apt_install a;b\nbw_apt_install c "$PKG" d # e').deb).toEqual(["a", "c"]);
    expect(packagesOf("if ! x; then bw_apt_install a \\\n  b; fi").deb).toEqual(["a", "b"]);
    expect(packagesOf("my_bw_apt_install a\necho bw_apt_install").deb).toEqual([]);
  });

  it("follow the platform's install script", () => {
    const sysbench = catalog.tool("sysbench")!;
    expect(toolPackages(sysbench, "debian_12")).toEqual({ deb: ["sysbench"], rpm: [] });
    expect(toolPackages(sysbench, "centos_9")).toEqual({ deb: [], rpm: ["sysbench"] });
    expect(toolPackages(sysbench, "unknown")).toEqual({ deb: ["sysbench"], rpm: ["sysbench"] });
    expect(toolPackages(catalog.tool("redis-benchmark")!, "ubuntu_22_04").deb).toEqual(["redis-tools", "redis-server"]);
    expect(toolPackages(catalog.tool("idle")!, "debian_12")).toEqual({ deb: [], rpm: [] });
  });
});

describe("reading a tool's version", () => {
  it("joins the installed packages' versions and drops the others", () => {
    const dpkg = "installed sysbench 1.0.20+ds-6\nconfig-files old 1.0\nnot-installed gone \ninstalled libfoo 2.1-1\ninstalled libfoo 2.1-1\n";
    expect(readPackageVersions(dpkg)).toBe("sysbench 1.0.20+ds-6, libfoo 2.1-1");
    expect(readPackageVersions("package sysbench is not installed\n")).toBeUndefined();
    expect(readPackageVersions("")).toBeUndefined();
  });

  it("asks dpkg, then rpm, for the packages, and never fails the shell", () => {
    const query = catalog.toolVersion("sysbench", "debian_12")!;
    expect(query.script).toContain("dpkg-query -W -f='${db:Status-Status} ${Package} ${Version}\\n' sysbench");
    expect(catalog.toolVersion("sysbench", "unknown")!.script).toContain("|| rpm -q --qf 'installed %{NAME} %{VERSION}-%{RELEASE}\\n' sysbench");
    expect(catalog.toolVersion("idle", "debian_12")).toBeUndefined();
    // dpkg itself is installed wherever these tests run (Debian): its answer is read back, though
    // dpkg-query fails on the unknown name and rpm is asked too.
    const script = query.script.replace(/ sysbench\b/g, " bw-no-such-package dpkg");
    const real = execFileSync("bash", ["-c", script], {
      encoding: "utf8",
    });
    expect(query.read(real)).toMatch(/^dpkg \d+\.\d+/);
  });

  it("runs a definition's own version script with the prelude, and reads its first line", () => {
    const versionFile = join(dir, "VERSION");
    writeFileSync(versionFile, "\n  2.5.1-beta  \nsecond line\n");
    writeFileSync(
      join(dir, "mine.yaml"),
      [
        "id: mine",
        "tool_name: Mine",
        "parser: keyvalue",
        "scripts:",
        "  install: bw_install mine",
        `  version: cat ${versionFile}`,
        "  version_centos: echo from-centos",
        "workloads:",
        "  - id: one",
        "    scripts: { run: 'true' }",
      ].join("\n"),
    );
    const withMine = loadCatalog({ extraDirs: [dir], onError: (file, e) => expect.fail(`${file}: ${e.message}`) });
    const query = withMine.toolVersion("mine", "debian_12")!;
    const out = execFileSync("bash", ["-c", query.script], { encoding: "utf8" });
    expect(query.read(out)).toBe("2.5.1-beta");
    expect(query.source).toBe("script");
    expect(catalog.toolVersion("sysbench", "debian_12")!.source).toBe("packages");
    expect(withMine.toolVersion("mine", "centos_9")!.script).toMatch(/echo from-centos\n$/);
    expect(query.read(`${"x".repeat(500)}\n`)).toHaveLength(200);
  });
});

describe("the packages in a recorded version", () => {
  it("are what readPackageVersions joined, each split at its first space", () => {
    const joined = readPackageVersions("installed redis-tools 5:7.0.15-1\ninstalled redis-server 5:7.0.15-1\n")!;
    expect(installedPackages(joined)).toEqual([
      { name: "redis-tools", version: "5:7.0.15-1" },
      { name: "redis-server", version: "5:7.0.15-1" },
    ]);
    expect(installedPackages("sysbench 1.0.20+ds-6")).toEqual([{ name: "sysbench", version: "1.0.20+ds-6" }]);
  });

  it("leave out an entry that is not `name version` (one cut at the length limit)", () => {
    expect(installedPackages("sysbench 1.0.20+ds-6, libfo")).toEqual([{ name: "sysbench", version: "1.0.20+ds-6" }]);
    expect(installedPackages("")).toEqual([]);
  });
});

import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { BUILTIN_TOOLS_DIR, loadCatalog } from "./catalog.js";
import { CatalogError } from "./errors.js";

// Each built-in tool's directory is named after its id (catalog.test.ts checks that).
const BUILTIN_IDS = readdirSync(BUILTIN_TOOLS_DIR)
  .filter((d) => existsSync(join(BUILTIN_TOOLS_DIR, d, "definition.yaml")))
  .sort();

const dirs: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), "bw-catalog-bad-"));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const DEFINITION = (id: string) => `
id: ${id}
tool_name: My ${id}
parser: keyvalue
workloads:
  - id: one
    scripts:
      run: echo "BW_METRIC answer 42 units"
`;

function load(dir: string) {
  const reported: Array<{ file: string; error: CatalogError }> = [];
  const catalog = loadCatalog({ extraDirs: [dir], onError: (file, error) => reported.push({ file, error }) });
  return {
    catalog,
    reported,
    ids: catalog
      .tools()
      .map((t) => t.id)
      .sort(),
  };
}

describe("loadCatalog, bad files in an extra directory", () => {
  it("reports and skips every kind of bad file, and serves the built-ins and the good files", () => {
    const dir = tempDir();
    writeFileSync(join(dir, "good.yaml"), DEFINITION("good"));
    writeFileSync(join(dir, "zz-also-good.yml"), DEFINITION("also-good"));
    symlinkSync(join(dir, "no-such-file.yaml"), join(dir, "dangling.yaml"));
    symlinkSync(join(dir, "loop.yaml"), join(dir, "loop.yaml"));
    mkdirSync(join(dir, "folder.yaml"));
    expect(spawnSync("mkfifo", [join(dir, "pipe.yml")]).status).toBe(0);
    // Unreadable even for root (tests may run as root, where chmod 000 reads fine): EIO on read.
    symlinkSync("/proc/self/mem", join(dir, "unreadable.yaml"));
    writeFileSync(join(dir, "invalid-yaml.yaml"), "id: [unclosed\n");
    writeFileSync(join(dir, "invalid-definition.yaml"), "id: nope\nparser: nonsense\n");
    writeFileSync(join(dir, "second-good.yaml"), DEFINITION("good"));

    const { catalog, reported, ids } = load(dir);

    expect(ids).toEqual([...BUILTIN_IDS, "also-good", "good"].sort());
    expect(catalog.tool("good")?.source).toBe(join(dir, "good.yaml"));
    const why = Object.fromEntries(reported.map((r) => [r.file.slice(dir.length + 1), r.error.message.slice(r.file.length + 2)]));
    expect(why).toEqual({
      "dangling.yaml": "is a symbolic link to nothing",
      "folder.yaml": "is not a regular file",
      "invalid-definition.yaml": expect.stringMatching(/^invalid definition:.*\n.*parser: unknown parser 'nonsense'/s),
      "invalid-yaml.yaml": expect.stringMatching(/^not valid YAML/),
      "loop.yaml": "is a loop of symbolic links",
      "pipe.yml": "is not a regular file",
      "second-good.yaml": `tool id 'good' is already defined in ${join(dir, "good.yaml")}`,
      "unreadable.yaml": "cannot be read (EIO)",
    });
    for (const r of reported) {
      expect(r.error).toBeInstanceOf(CatalogError);
      expect(r.error.file).toBe(r.file);
    }
  });

  it("loads without a reporter too: a bad file never throws", () => {
    const dir = tempDir();
    symlinkSync(join(dir, "gone.yaml"), join(dir, "dangling.yaml"));
    writeFileSync(join(dir, "good.yaml"), DEFINITION("good"));
    const ids = loadCatalog({ extraDirs: [dir] })
      .tools()
      .map((t) => t.id);
    expect(ids).toContain("good");
    expect(ids).toContain("sysbench");
  });

  it("reports an extra 'directory' that is a file, and still serves the built-ins", () => {
    const dir = tempDir();
    const file = join(dir, "benchmarks");
    writeFileSync(file, "not a folder");
    const { reported, ids } = load(file);
    expect(ids).toEqual(BUILTIN_IDS);
    expect(reported.map((r) => r.error.message)).toEqual([`${file}: is not a directory`]);
  });

  it("takes a directory that is a dangling symlink as missing", () => {
    const dir = tempDir();
    symlinkSync(join(dir, "gone"), join(dir, "benchmarks"));
    const { reported, ids } = load(join(dir, "benchmarks"));
    expect(ids).toEqual(BUILTIN_IDS);
    expect(reported).toEqual([]);
  });
});

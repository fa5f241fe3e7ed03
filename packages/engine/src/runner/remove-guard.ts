// Which paths the runner may delete on a host: never one it did not make.
function normalize(path: string): string[] | undefined {
  const segments = path.split("/").filter((s, i) => s !== "" || i === 0);
  if (segments.some((s) => s === "." || s === "..")) return undefined;
  return segments;
}

/** True for a path strictly below a `.benchwright` dir or below `root`. */
export function removable(dir: string, root?: string): boolean {
  const segments = normalize(dir);
  if (!segments) return false;
  const i = segments.indexOf(".benchwright");
  if (i >= 0 && i < segments.length - 1) return true;
  if (root === undefined) return false;
  const base = normalize(root);
  if (!base || base.length === 0 || (base.length === 1 && (base[0] === "" || base[0] === "~"))) return false;
  return segments.length > base.length && base.every((s, k) => segments[k] === s);
}

/** A hash route: `#/executions/<id>` → path `["executions", "<id>"]`; `#/compare?ids=a,b` → query. */
export interface Route {
  path: string[];
  query: URLSearchParams;
}

export function parseRoute(hash: string): Route {
  const [path = "", query = ""] = hash.replace(/^#/, "").split("?", 2);
  return { path: path.split("/").filter(Boolean).map(decodeURIComponent), query: new URLSearchParams(query) };
}

export function href(path: string[], query?: Record<string, string>): string {
  const q = query ? new URLSearchParams(query).toString() : "";
  return `#/${path.map(encodeURIComponent).join("/")}${q ? `?${q}` : ""}`;
}

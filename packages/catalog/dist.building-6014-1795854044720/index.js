import { loadCatalog } from "./catalog.js";
import { paramEnv } from "./params.js";
import { installedPackages } from "./tool-version.js";
export {
  installedPackages,
  loadCatalog,
  paramEnv
};
//# sourceMappingURL=index.js.map

import { pgliteImageSetup } from "@benchwright/testing/pglite-image-setup";
import { migratedPgliteImage } from "../store/pglite-db.js";

/** Vitest global setup: the run's one migrated PGlite image, made by this source's migrations (see `pgliteImageSetup`). */
export default pgliteImageSetup(migratedPgliteImage);
